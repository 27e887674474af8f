// Removes a deleted repository's commit statuses. The status tables keep no foreign key to
// `repository` (their schema block stands alone), so the deletion reaches them through
// repository's own repository.repo.deleted event, as Gitea's DeleteRepository removes them
// explicitly. Deleting is idempotent: a redelivered event finds nothing left.
import type { ConsumerOptions } from '@anvil/kit';
import type { repository as pb } from '@anvil/proto';
import { removeRepositoryCommitStatuses } from '../store/commit-statuses.js';
import type { RepositoryTx } from '../store/db.js';

export const COMMIT_STATUS_CLEANUP_CONSUMER = 'repository-commit-status-cleanup';

export function commitStatusCleanupConsumer(): Omit<ConsumerOptions<RepositoryTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: COMMIT_STATUS_CLEANUP_CONSUMER,
    filter: 'repository.repo.deleted',
    async handle(event, tx) {
      const id = Number((event.payload as pb.RepositoryDeleted | undefined)?.repository?.id ?? 0);
      if (id > 0) await removeRepositoryCommitStatuses(tx, id);
    },
  };
}
