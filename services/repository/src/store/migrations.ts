// Migration and mirror rows, written in the same transaction as the repository row (the
// repository store's writer, plus the migration row) so a repository is never half a mirror.
// The mirror facts (is_mirror, interval, last update) live on the repository row, which
// every read of a repository returns; this table holds the schedule and a clone's progress.
import { outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import type { MigrationStore, MigrationWriter, MirrorRecord } from '../domain/migrations.js';
import type { RepositoryEvent, RepositoryStore } from '../domain/store.js';
import type { RepositoryDb, RepositoryTx } from './db.js';
import { writer as repositoryWriter } from './repositories.js';
import { dropRepositoryStars } from './stars.js';

function migrationWriter(tx: RepositoryTx, published: RepositoryEvent[]): MigrationWriter {
  return {
    ...repositoryWriter(tx, published),
    async recordMigration(record) {
      await tx.repositoryMigration.create({
        data: { repository_id: BigInt(record.repositoryId), service: record.service, next_sync_at: record.nextSyncAt, last_error: record.lastError },
      });
    },
    async finishMigration(repositoryId, nextSyncAt) {
      await tx.repositoryMigration.update({ where: { repository_id: BigInt(repositoryId) }, data: { next_sync_at: nextSyncAt, progress: '', progress_at: new Date() } });
    },
  };
}

export function migrationStore(db: RepositoryDb, repositories: RepositoryStore, options: OutboxStoreOptions = {}): MigrationStore {
  return {
    ...repositories,
    transaction: (work) => outboxTransaction(db, migrationWriter, work, options),
    async findMigration(repositoryId) {
      const rows = await db.$queryRaw<Array<{ service: string; next_sync_at: Date | null; last_error: string; mirror: boolean; mirror_interval: bigint }>>`
        SELECT m.service, m.next_sync_at, m.last_error, r.mirror, r.mirror_interval
        FROM repository_migration m JOIN repository r ON r.id = m.repository_id
        WHERE m.repository_id = ${BigInt(repositoryId)}`;
      const row = rows[0];
      if (!row) return undefined;
      const record: MirrorRecord = {
        repositoryId, service: row.service, nextSyncAt: row.next_sync_at, lastError: row.last_error,
        isMirror: row.mirror, intervalMs: Number(row.mirror_interval),
      };
      return record;
    },
    async claimDueMirrors(now, leaseMs, limit) {
      // The lease: a claimed mirror's next sync moves `leaseMs` ahead in the same statement,
      // and SKIP LOCKED lets replicas claim at once without waiting on each other, so each
      // due mirror is claimed by exactly one replica per round.
      const rows = await db.$queryRaw<Array<{ repository_id: bigint }>>`
        UPDATE repository_migration SET next_sync_at = ${new Date(now.getTime() + leaseMs)}
        WHERE repository_id IN (
          SELECT m.repository_id FROM repository_migration m JOIN repository r ON r.id = m.repository_id
          WHERE r.mirror AND r.status = 'ready' AND m.next_sync_at IS NOT NULL AND m.next_sync_at <= ${now}
          ORDER BY m.next_sync_at LIMIT ${limit} FOR UPDATE OF m SKIP LOCKED)
        RETURNING repository_id`;
      return rows.map((r) => Number(r.repository_id));
    },
    async mirrorSynced(repositoryId, result) {
      const id = BigInt(repositoryId);
      await db.$transaction([
        db.repositoryMigration.updateMany({ where: { repository_id: id }, data: { next_sync_at: result.nextSyncAt, last_error: result.lastError } }),
        ...(result.updatedAt ? [db.repository.updateMany({ where: { id }, data: { mirror_updated_at: result.updatedAt } })] : []),
      ]);
    },
    async requestSync(repositoryId, at) {
      await db.repositoryMigration.updateMany({ where: { repository_id: BigInt(repositoryId) }, data: { next_sync_at: at } });
    },
    async forgetMigration(repositoryId) {
      await db.repositoryMigration.deleteMany({ where: { repository_id: BigInt(repositoryId) } });
    },
    async migrationProgress(repositoryId, progress) {
      await db.repositoryMigration.updateMany({ where: { repository_id: BigInt(repositoryId) }, data: { progress, progress_at: new Date() } });
    },
    async removeAbandonedMigrations(before) {
      return db.$transaction(async (tx) => {
        // Rows another replica is sweeping are skipped, so each is removed once.
        const rows = await tx.$queryRaw<Array<{ id: bigint }>>`
          SELECT r.id FROM repository r JOIN repository_migration m ON m.repository_id = r.id
          WHERE r.status = 'migrating' AND m.progress_at < ${before}
          FOR UPDATE OF r SKIP LOCKED`;
        const ids = rows.map((r) => r.id);
        if (!ids.length) return [];
        await dropRepositoryStars(tx, ids);
        await tx.repository.deleteMany({ where: { id: { in: ids } } });
        await tx.repositoryMigration.deleteMany({ where: { repository_id: { in: ids } } });
        return ids.map(Number);
      });
    },
  };
}
