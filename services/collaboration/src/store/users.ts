// The user read model (table "user"): identity's User message per user, from identity's
// events and from the signed caller and repository owner on writes.
import type { PgTransactionClient } from '@anvil/kit';
import type { UserProfile } from '../domain/users.js';
import type { Prisma } from './generated/client.js';
import type { CollaborationDb, CollaborationTx } from './db.js';

type Client = CollaborationDb | CollaborationTx;

const rowOf = (user: UserProfile) => ({
  id: BigInt(user.id), login: user.login, lower_name: user.login.toLowerCase(),
  type: user.type === 'organization' ? 'organization' : 'user', profile: user as unknown as Prisma.InputJsonValue,
});

/**
 * Users whose rows this process found already stored (an insert that inserted nothing), so
 * every write need not ask again: a statement less on each write path. Only rows found
 * committed are remembered (an insert of ours may still roll back with its transaction), and
 * forgetUser drops them. Bounded: cleared whole when full.
 */
const stored = new Set<number>();
const STORED_MAX = 10_000;

const notStored = (users: UserProfile[]) => users.filter((u) => u.id > 0 && u.login && !stored.has(u.id));

function noteStored(users: UserProfile[], inserted: number): void {
  if (inserted > 0) return;
  if (stored.size + users.length > STORED_MAX) stored.clear();
  for (const u of users) stored.add(u.id);
}

/** Adds users the read model has not heard of yet; never overwrites what identity's events wrote. */
export async function rememberUsers(db: Client, users: UserProfile[]): Promise<void> {
  const unknown = notStored(users);
  if (!unknown.length) return;
  const { count } = await db.user.createMany({ data: unknown.map(rowOf), skipDuplicates: true });
  noteStored(unknown, count);
}

/** rememberUsers on a pg transaction's client (pgOutboxTransaction). */
export async function rememberUsersOn(client: PgTransactionClient, users: UserProfile[]): Promise<void> {
  const unknown = notStored(users);
  if (!unknown.length) return;
  const values = unknown.flatMap((u) => { const row = rowOf(u); return [row.id.toString(), row.login, row.lower_name, row.type, JSON.stringify(u)]; });
  const tuples = unknown.map((_, i) => `($${5 * i + 1}, $${5 * i + 2}, $${5 * i + 3}, $${5 * i + 4}, $${5 * i + 5}::jsonb)`);
  const { rowCount } = await client.query(`INSERT INTO "user" (id, login, lower_name, type, profile) VALUES ${tuples.join(', ')} ON CONFLICT (id) DO NOTHING`, values);
  noteStored(unknown, rowCount ?? 0);
}

/** identity.user.created/updated: the user as identity describes them now. */
export async function putUser(db: Client, user: UserProfile): Promise<void> {
  const row = rowOf(user);
  await db.user.upsert({ where: { id: row.id }, create: row, update: { login: row.login, lower_name: row.lower_name, type: row.type, profile: row.profile } });
}

/** identity.user.deleted: their issues stay, shown by Gitea's ghost user. */
export async function forgetUser(db: Client, id: number): Promise<void> {
  stored.delete(id);
  await db.user.deleteMany({ where: { id: BigInt(id) } });
  await db.issueAssignee.deleteMany({ where: { user_id: BigInt(id) } });
}

export async function usersByLogin(db: Client, logins: string[]): Promise<UserProfile[]> {
  if (!logins.length) return [];
  const rows = await db.user.findMany({ where: { lower_name: { in: logins.map((l) => l.toLowerCase()) } } });
  return rows.map((r) => ({ ...(r.profile as object), id: Number(r.id), login: r.login, type: r.type }));
}

/** The user as the read model knows them (identity's full description), else `fallback`. */
export async function profileOf(db: Client, fallback: UserProfile): Promise<UserProfile> {
  const row = await db.user.findUnique({ where: { id: BigInt(fallback.id) } });
  return row ? { ...(row.profile as object), id: Number(row.id), login: row.login, type: row.type } : fallback;
}

/** profileOf on a pg transaction's client (pgOutboxTransaction). */
export async function profileOn(client: PgTransactionClient, fallback: UserProfile): Promise<UserProfile> {
  const { rows: [row] } = await client.query<{ id: string; login: string; type: string; profile: object }>({
    name: 'user-profile', text: 'SELECT id, login, type, profile FROM "user" WHERE id = $1', values: [String(fallback.id)],
  });
  return row ? { ...row.profile, id: Number(row.id), login: row.login, type: row.type } as UserProfile : fallback;
}
