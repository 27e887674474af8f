// The owner read model in PostgreSQL (tables `owner` and `deleted_owner`).
import type { Owner, OwnerReader, OwnerType, OwnerVisibility } from '../domain/owner.js';
import type { OwnerWriter } from '../domain/owner-read-model.js';
import { Prisma, type Owner as OwnerRow } from './generated/client.js';
import { queryRows, type RepositoryDb, type RepositoryTx } from './db.js';
import { readOncePerTurn } from '../domain/write-turn.js';

export function toOwner(row: OwnerRow): Owner {
  return {
    id: Number(row.id),
    login: row.name,
    type: row.type as OwnerType,
    isAdmin: row.is_admin,
    restricted: row.restricted,
    visibility: row.visibility as OwnerVisibility,
    fullName: row.full_name,
    email: row.email,
    maxRepoCreation: row.max_repo_creation,
    profile: (row.profile as Record<string, unknown> | null) ?? null,
  };
}

function toRow(owner: Owner) {
  return {
    lower_name: owner.login.toLowerCase(),
    name: owner.login,
    type: owner.type,
    is_admin: owner.isAdmin,
    restricted: owner.restricted,
    visibility: owner.visibility,
    full_name: owner.fullName,
    email: owner.email,
    max_repo_creation: owner.maxRepoCreation,
    profile: owner.profile ? (owner.profile as Prisma.InputJsonValue) : Prisma.JsonNull,
  };
}

/** An owner row as to_jsonb() writes it: the id arrives as a number, the timestamp as text. */
export type OwnerJson = Record<keyof OwnerRow, unknown>;

export function ownerRowFromJson(json: OwnerJson): OwnerRow {
  return { ...(json as unknown as OwnerRow), id: BigInt(json.id as number), updated_at: new Date(json.updated_at as string) };
}

export function ownerReader(db: RepositoryDb | RepositoryTx): OwnerReader {
  return {
    // A contents write reads its committer and the owner and sender of its push event:
    // outside a transaction, a prepared statement on the pool skips Prisma's per-query cost,
    // and in a write turn each of them is read once.
    findById(id) {
      return readOncePerTurn(`owner:${id}`, async () => {
        const [row] = await queryRows<{ owner: OwnerJson }>(db, Prisma.sql`SELECT to_jsonb(o) AS owner FROM owner o WHERE o.id = ${BigInt(id)}`, 'find-owner');
        return row ? toOwner(ownerRowFromJson(row.owner)) : undefined;
      });
    },
    async findByLogin(login) {
      const row = await db.owner.findUnique({ where: { lower_name: login.toLowerCase() } });
      return row ? toOwner(row) : undefined;
    },
  };
}

export function ownerWriter(tx: RepositoryTx): OwnerWriter {
  return {
    async isDeleted(id) {
      return (await tx.deletedOwner.count({ where: { id: BigInt(id) } })) > 0;
    },
    async insertIfAbsent(owner) {
      // Only a row with the same id is skipped; a login still held by another id raises,
      // so the event is retried once that owner's rename or deletion has been applied.
      const row = toRow(owner);
      await tx.$executeRaw`
        INSERT INTO owner (id, lower_name, name, type, is_admin, restricted, visibility, full_name, email, max_repo_creation, profile, updated_at)
        VALUES (${BigInt(owner.id)}, ${row.lower_name}, ${row.name}, ${row.type}, ${row.is_admin}, ${row.restricted},
                ${row.visibility}, ${row.full_name}, ${row.email}, ${row.max_repo_creation},
                ${owner.profile ? JSON.stringify(owner.profile) : null}::jsonb, now())
        ON CONFLICT (id) DO NOTHING`;
    },
    async save(owner) {
      const row = toRow(owner);
      await tx.owner.upsert({ where: { id: BigInt(owner.id) }, create: { id: BigInt(owner.id), ...row }, update: row });
    },
    async remove(id) {
      await tx.owner.deleteMany({ where: { id: BigInt(id) } });
      await tx.deletedOwner.createMany({ data: [{ id: BigInt(id) }], skipDuplicates: true });
    },
  };
}
