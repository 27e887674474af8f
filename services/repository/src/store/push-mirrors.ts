// Push-mirror rows (Prisma).
import type { PushMirrorRecord, PushMirrorStore } from '../domain/push-mirrors.js';
import type { PushMirror as Row } from './generated/client.js';
import type { RepositoryDb } from './db.js';

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
        },
      });
      return toRecord(row);
    },
    async remove(repositoryId, remoteName) {
      await db.pushMirror.deleteMany({ where: { repository_id: BigInt(repositoryId), remote_name: remoteName } });
    },
    async synced(repositoryId, remoteName, lastError) {
      await db.pushMirror.updateMany({ where: { repository_id: BigInt(repositoryId), remote_name: remoteName }, data: { last_update_at: new Date(), last_error: lastError } });
    },
  };
}
