// Push-mirror rows.
import type { PushMirrorRecord, PushMirrorStore } from '../domain/push-mirrors.js';
import { Prisma, type PushMirror as Row } from './generated/client.js';
import { queryRows, type RepositoryDb } from './db.js';

function toRecord(row: Row): PushMirrorRecord {
  return {
    repositoryId: Number(row.repository_id), remoteName: row.remote_name, remoteAddress: row.remote_address, intervalMs: Number(row.interval),
    syncOnCommit: row.sync_on_commit, lastUpdate: row.last_update_at, lastError: row.last_error, createdAt: row.created_at,
  };
}

export function pushMirrorStore(db: RepositoryDb): PushMirrorStore {
  return {
    async list(repositoryId, offset, limit) {
      const where = { repository_id: BigInt(repositoryId) };
      const [rows, total] = await Promise.all([db.pushMirror.findMany({ where, orderBy: { id: 'asc' }, skip: offset, take: limit }), db.pushMirror.count({ where })]);
      return { items: rows.map(toRecord), total };
    },
    async find(repositoryId, remoteName) {
      const row = await db.pushMirror.findUnique({ where: { repository_id_remote_name: { repository_id: BigInt(repositoryId), remote_name: remoteName } } });
      return row ? toRecord(row) : undefined;
    },
    async insert(record) {
      const row = await db.pushMirror.create({
        data: {
          repository_id: BigInt(record.repositoryId), remote_name: record.remoteName, remote_address: record.remoteAddress,
          interval: BigInt(record.intervalMs), sync_on_commit: record.syncOnCommit,
          next_sync_at: record.intervalMs > 0 ? new Date(Date.now() + record.intervalMs) : null,
        },
      });
      return toRecord(row);
    },
    async remove(repositoryId, remoteName) {
      await db.pushMirror.deleteMany({ where: { repository_id: BigInt(repositoryId), remote_name: remoteName } });
    },
    async synced(repositoryId, remoteName, lastError) {
      await db.$executeRaw`
        UPDATE push_mirror SET last_update_at = now(), last_error = ${lastError},
          next_sync_at = CASE WHEN "interval" > 0 THEN now() + "interval" * interval '1 millisecond' ELSE NULL END
        WHERE repository_id = ${BigInt(repositoryId)} AND remote_name = ${remoteName}`;
    },
    async markDueAfterPush(repositoryId) {
      // Every push asks, and most repositories have no push mirror: a prepared statement.
      const rows = await queryRows<{ n: number }>(db, Prisma.sql`
        WITH due AS (UPDATE push_mirror SET next_sync_at = now() WHERE repository_id = ${BigInt(repositoryId)} AND sync_on_commit RETURNING 1)
        SELECT count(*)::int AS n FROM due`, 'mark-push-mirrors-due');
      return rows[0]?.n ?? 0;
    },
    async claimDue(now, leaseMs, limit) {
      // The same lease as pull mirrors (store/migrations.ts): one replica per due push mirror.
      const rows = await db.$queryRaw<Array<{ repository_id: bigint; remote_name: string }>>`
        UPDATE push_mirror SET next_sync_at = ${new Date(now.getTime() + leaseMs)}
        WHERE id IN (
          SELECT id FROM push_mirror WHERE next_sync_at IS NOT NULL AND next_sync_at <= ${now}
          ORDER BY next_sync_at LIMIT ${limit} FOR UPDATE SKIP LOCKED)
        RETURNING repository_id, remote_name`;
      return rows.map((r) => ({ repositoryId: Number(r.repository_id), remoteName: r.remote_name }));
    },
  };
}
