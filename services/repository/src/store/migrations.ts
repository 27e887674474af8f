// Migration and mirror rows, written in the same transaction as the repository row (the
// repository store's writer, plus the migration row) so a repository is never half a mirror.
import { outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import type { MigrationRecord, MigrationStore, MigrationWriter } from '../domain/migrations.js';
import type { RepositoryEvent, RepositoryStore } from '../domain/store.js';
import type { RepositoryMigration as Row } from './generated/client.js';
import type { RepositoryDb, RepositoryTx } from './db.js';
import { writer as repositoryWriter } from './repositories.js';

function toRecord(row: Row): MigrationRecord {
  return {
    repositoryId: Number(row.repository_id), originalUrl: row.original_url, service: row.service, isMirror: row.is_mirror,
    intervalMs: Number(row.mirror_interval), updatedAt: row.mirror_updated_at, nextSyncAt: row.next_sync_at, lastError: row.last_error,
  };
}

function migrationWriter(tx: RepositoryTx, published: RepositoryEvent[]): MigrationWriter {
  return {
    ...repositoryWriter(tx, published),
    async recordMigration(record) {
      await tx.repositoryMigration.create({
        data: {
          repository_id: BigInt(record.repositoryId), original_url: record.originalUrl, service: record.service, is_mirror: record.isMirror,
          mirror_interval: BigInt(record.intervalMs), mirror_updated_at: record.updatedAt, next_sync_at: record.nextSyncAt, last_error: record.lastError,
        },
      });
    },
  };
}

export function migrationStore(db: RepositoryDb, repositories: RepositoryStore, options: OutboxStoreOptions = {}): MigrationStore {
  return {
    ...repositories,
    transaction: (work) => outboxTransaction(db, migrationWriter, work, options),
    async findMigration(repositoryId) {
      const row = await db.repositoryMigration.findUnique({ where: { repository_id: BigInt(repositoryId) } });
      return row ? toRecord(row) : undefined;
    },
    async findMigrations(repositoryIds) {
      if (!repositoryIds.length) return new Map();
      const rows = await db.repositoryMigration.findMany({ where: { repository_id: { in: repositoryIds.map(BigInt) } } });
      return new Map(rows.map((row) => [Number(row.repository_id), toRecord(row)]));
    },
    async claimDueMirrors(now, leaseMs, limit) {
      // The lease: a claimed mirror's next sync moves `leaseMs` ahead in the same statement,
      // and SKIP LOCKED lets replicas claim at once without waiting on each other, so each
      // due mirror is claimed by exactly one replica per round.
      const rows = await db.$queryRaw<Array<{ repository_id: bigint }>>`
        UPDATE repository_migration SET next_sync_at = ${new Date(now.getTime() + leaseMs)}
        WHERE repository_id IN (
          SELECT repository_id FROM repository_migration
          WHERE is_mirror AND next_sync_at IS NOT NULL AND next_sync_at <= ${now}
          ORDER BY next_sync_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING repository_id`;
      return rows.map((r) => Number(r.repository_id));
    },
    async mirrorSynced(repositoryId, result) {
      await db.repositoryMigration.updateMany({
        where: { repository_id: BigInt(repositoryId) },
        data: { mirror_updated_at: result.updatedAt ?? undefined, next_sync_at: result.nextSyncAt, last_error: result.lastError },
      });
    },
    async requestSync(repositoryId, at) {
      await db.repositoryMigration.updateMany({ where: { repository_id: BigInt(repositoryId), is_mirror: true }, data: { next_sync_at: at } });
    },
    async forgetMigration(repositoryId) {
      await db.repositoryMigration.deleteMany({ where: { repository_id: BigInt(repositoryId) } });
    },
  };
}
