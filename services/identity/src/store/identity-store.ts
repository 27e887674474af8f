// IdentityStore over PostgreSQL. Reads run on the client or inside a transaction; writes
// only inside one, with the outbox rows of their events, and the relay is woken after commit.
import { outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import {
  UniqueViolation, type IdentityEvent, type IdentityReader, type IdentityStore, type IdentityWriter,
} from '../domain/store.js';
import type { User } from '../domain/user.js';
import { outboxRowOf } from '../events/identity-events.js';
import { isUniqueViolation, type IdentityDb, type IdentityTx } from './db.js';
import { addFollow, followers, following, forgetFollows, isFollowing, removeFollow } from './follows.js';
import { toAccessToken, toEmailAddress, toUser, userColumns, userTypeNumber } from './rows.js';
import { userSearchOrder, userSearchWhere } from './user-search.js';

type Client = IdentityDb | IdentityTx;

const skipOf = (page: { page: number; limit: number }) => (page.page - 1) * page.limit;

function reader(db: Client): IdentityReader {
  return {
    async userById(id) {
      const row = await db.user.findUnique({ where: { id: BigInt(id) } });
      return row ? toUser(row) : undefined;
    },
    async userByLogin(login) {
      const row = await db.user.findUnique({ where: { lower_name: login.toLowerCase() } });
      return row ? toUser(row) : undefined;
    },
    async userByEmail(email) {
      const row = await db.emailAddress.findUnique({
        where: { lower_email: email.toLowerCase() }, include: { user: true }, relationLoadStrategy: 'join',
      });
      return row ? toUser(row.user) : undefined;
    },
    async usersByIdsOrLogins(ids, logins) {
      const rows = await db.user.findMany({
        where: { OR: [{ id: { in: ids.map((id) => BigInt(id)) } }, { lower_name: { in: logins.map((l) => l.toLowerCase()) } }] },
        orderBy: { id: 'asc' },
      });
      return rows.map(toUser);
    },
    async usersByEmails(lowerEmails) {
      const rows = await db.emailAddress.findMany({
        where: { lower_email: { in: lowerEmails }, verified: true }, include: { user: true }, relationLoadStrategy: 'join',
      });
      return rows.map((row) => ({ email: row.lower_email, user: toUser(row.user) }));
    },
    async searchUsers(search) {
      const where = userSearchWhere(search);
      const [rows, total] = await Promise.all([
        db.user.findMany({ where, orderBy: userSearchOrder(search.sort), skip: skipOf(search.page), take: search.page.limit }),
        db.user.count({ where }),
      ]);
      return { items: rows.map(toUser), total };
    },
    async credentialByTokenHash(tokenHash) {
      // One statement: the token joined with its user (relationJoins).
      const row = await db.accessToken.findUnique({
        where: { token_hash: tokenHash }, include: { user: true }, relationLoadStrategy: 'join',
      });
      return row ? { token: toAccessToken(row), user: toUser(row.user) } : undefined;
    },
    async emailsOf(userId) {
      const rows = await db.emailAddress.findMany({ where: { user_id: BigInt(userId) }, orderBy: { id: 'asc' } });
      return rows.map(toEmailAddress);
    },
    async emailAddress(email) {
      const row = await db.emailAddress.findUnique({ where: { lower_email: email.toLowerCase() } });
      return row ? toEmailAddress(row) : undefined;
    },
    async accessTokens(userId, page) {
      const where = { user_id: BigInt(userId) };
      const [rows, total] = await Promise.all([
        db.accessToken.findMany({ where, orderBy: [{ created_at: 'desc' }, { id: 'desc' }], skip: skipOf(page), take: page.limit }),
        db.accessToken.count({ where }),
      ]);
      return { items: rows.map(toAccessToken), total };
    },
    async accessTokensNamed(userId, name) {
      const rows = await db.accessToken.findMany({ where: { user_id: BigInt(userId), name }, orderBy: { id: 'asc' } });
      return rows.map(toAccessToken);
    },
    async countOrgMemberships(userId) {
      return db.orgUser.count({ where: { uid: BigInt(userId) } });
    },
    isFollowing: (userId, followId) => isFollowing(db, userId, followId),
    followers: (userId, viewer, page) => followers(db, userId, viewer, page),
    following: (userId, viewer, page) => following(db, userId, viewer, page),
  };
}

async function uniqueAs<T>(field: UniqueViolation['field'], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw new UniqueViolation(field);
    throw err;
  }
}

/** The account writer of a transaction; the organization store builds on it. */
export function writer(tx: IdentityTx, published: unknown[]): IdentityWriter {
  const lockedUser = async (where: { lower_name: string } | { id: bigint }): Promise<User | undefined> => {
    const [locked] = 'id' in where
      ? await tx.$queryRaw<Array<{ id: bigint }>>`SELECT id FROM "user" WHERE id = ${where.id} FOR UPDATE`
      : await tx.$queryRaw<Array<{ id: bigint }>>`SELECT id FROM "user" WHERE lower_name = ${where.lower_name} FOR UPDATE`;
    if (!locked) return undefined;
    const row = await tx.user.findUnique({ where: { id: locked.id } });
    return row ? toUser(row) : undefined;
  };
  return {
    ...reader(tx),
    lockUserByLogin: (login) => lockedUser({ lower_name: login.toLowerCase() }),
    lockUserById: (id) => lockedUser({ id: BigInt(id) }),
    async countAdminsLocked() {
      // Serializes every change that could remove the last administrator: two concurrent
      // demotions of the last two must not both see another administrator left.
      await tx.$queryRaw`SELECT 1 AS locked FROM pg_advisory_xact_lock(hashtext('anvil.identity.site_admins'))`;
      return tx.user.count({ where: { is_admin: true, type: userTypeNumber('user') } });
    },
    async insertUser(fields, created) {
      const { login, ...rest } = fields;
      const data = { ...userColumns(rest), name: login, lower_name: login.toLowerCase(), ...(created ? { created_at: created, updated_at: created } : {}) };
      return toUser(await uniqueAs('login', () => tx.user.create({ data })));
    },
    async updateUser(id, patch) {
      // A rename can race another account taking the name: report it as the login's.
      const row = await uniqueAs('login', () => tx.user.update({ where: { id: BigInt(id) }, data: { ...userColumns(patch), updated_at: new Date() } }));
      return toUser(row);
    },
    async deleteUser(id) {
      // Addresses and tokens cascade; GPG keys have no foreign key to the user (see schema.prisma).
      await tx.gpgKey.deleteMany({ where: { owner_id: BigInt(id) } });
      await tx.user.delete({ where: { id: BigInt(id) } });
    },
    async insertEmail(email) {
      const row = await uniqueAs('email', () => tx.emailAddress.create({
        data: {
          user_id: BigInt(email.user_id), email: email.email, lower_email: email.email.toLowerCase(),
          verified: email.verified, is_primary: email.is_primary,
        },
      }));
      return toEmailAddress(row);
    },
    async deleteEmail(id) {
      await tx.emailAddress.deleteMany({ where: { id: BigInt(id) } });
    },
    async insertAccessToken(token) {
      const row = await uniqueAs('token_name', () => tx.accessToken.create({ data: { ...token, user_id: BigInt(token.user_id) } }));
      return toAccessToken(row);
    },
    async deleteAccessToken(id, userId) {
      const row = await tx.accessToken.findFirst({ where: { id: BigInt(id), user_id: BigInt(userId) } });
      if (!row) return undefined;
      const { count } = await tx.accessToken.deleteMany({ where: { id: row.id } });
      return count === 1 ? toAccessToken(row) : undefined;
    },
    addFollow: (userId, followId) => addFollow(tx, userId, followId),
    removeFollow: (userId, followId) => removeFollow(tx, userId, followId),
    forgetFollows: (userId) => forgetFollows(tx, userId),
    async publish(event) {
      await tx.outboxEvent.create({ data: outboxRowOf(event) });
      published.push(event);
    },
  };
}

export type IdentityStoreOptions = OutboxStoreOptions;

export function identityStore(db: IdentityDb, options: IdentityStoreOptions = {}): IdentityStore {
  return {
    ...reader(db),
    transaction: (work) => outboxTransaction(db, writer, work, options),
    async touchAccessToken(id, at) {
      await db.accessToken.updateMany({ where: { id: BigInt(id) }, data: { updated_at: at } });
    },
  };
}
