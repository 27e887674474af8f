// Pull mirrors (Gitea's services/mirror): asking for a sync now. The sync itself runs in the
// scheduler (events/mirror-scheduler.ts), one replica per mirror; what the repository JSON
// says about a mirror is on the repository row itself.
import { forbidden, invalid, type Caller } from '@anvil/kit';
import { atLeast } from './permission.js';
import type { MigrationStore } from './migrations.js';
import { resolveRepository } from './repositories.js';

/** POST /repos/{o}/{r}/mirror-sync: write permission; the sync is queued, as in Gitea. */
export async function requestMirrorSync(store: MigrationStore, owner: string, name: string, caller: Caller): Promise<number> {
  const access = await resolveRepository(store, owner, name, caller);
  if (!atLeast(access.permission, 'write')) throw forbidden('Must have write access', 'repo_permission_denied');
  if (!access.repository.mirror || access.repository.status !== 'ready') throw invalid('Repository is not a mirror', 'not_a_mirror');
  await store.requestSync(access.repository.id, new Date());
  return access.repository.id;
}
