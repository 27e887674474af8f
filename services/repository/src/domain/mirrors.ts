// Pull mirrors (Gitea's services/mirror): asking for a sync now, and what the repository
// JSON says about a migrated repository. The sync itself runs in the scheduler
// (events/mirror-scheduler.ts), one replica per mirror.
import { forbidden, invalid, type Caller } from '@anvil/kit';
import { atLeast } from './permission.js';
import type { MigrationRecord, MigrationStore } from './migrations.js';
import { requirePermission, resolveRepository } from './repositories.js';
import { formatGoDuration } from './remote-address.js';

export interface MirrorInfo {
  mirror: boolean;
  mirrorInterval: string;
  mirrorUpdated?: Date;
  originalUrl: string;
}

export function mirrorInfoOf(record: MigrationRecord | undefined): MirrorInfo {
  if (!record) return { mirror: false, mirrorInterval: '', originalUrl: '' };
  return {
    mirror: record.isMirror, mirrorInterval: record.isMirror ? formatGoDuration(record.intervalMs) : '',
    mirrorUpdated: record.isMirror ? record.updatedAt ?? undefined : undefined, originalUrl: record.originalUrl,
  };
}

/** POST /repos/{o}/{r}/mirror-sync: write permission; the sync is queued, as in Gitea. */
export async function requestMirrorSync(store: MigrationStore, owner: string, name: string, caller: Caller): Promise<number> {
  const access = await resolveRepository(store, owner, name, caller);
  if (!atLeast(access.permission, 'write')) throw forbidden('Must have write access', 'repo_permission_denied');
  const record = await store.findMigration(access.repository.id);
  if (!record?.isMirror) throw invalid('Repository is not a mirror', 'not_a_mirror');
  await store.requestSync(access.repository.id, new Date());
  return access.repository.id;
}

/** The repository JSON's mirror fields for a repository the caller may see. */
export async function mirrorInfo(store: MigrationStore, owner: string, name: string, caller: Caller): Promise<MirrorInfo> {
  const access = await requirePermission(store, owner, name, caller, 'read');
  return mirrorInfoOf(await store.findMigration(access.repository.id));
}
