// Pull mirrors (Gitea's services/mirror): asking for a sync now. The sync itself runs in the
// scheduler (events/mirror-scheduler.ts), one replica per mirror; what the repository JSON
// says about a mirror is on the repository row itself.
import { invalid } from '@anvil/kit';
import type { MigrationStore } from './migrations.js';
import type { RepositoryAccess } from './repositories.js';

/** POST /repos/{o}/{r}/mirror-sync (write permission: the route table's `repoAccess`): the sync is queued, as in Gitea. */
export async function requestMirrorSync(store: MigrationStore, access: RepositoryAccess): Promise<number> {
  if (!access.repository.mirror || access.repository.status !== 'ready') throw invalid('Repository is not a mirror', 'not_a_mirror');
  await store.requestSync(access.repository.id, new Date());
  return access.repository.id;
}
