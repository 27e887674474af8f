// Consumes the repository service's deletion event: a deleted repository's issues, labels
// and milestones go with it (nothing else of the repository is copied here).
import type { ConsumerOptions, Logger } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import type { CollaborationTx } from '../store/db.js';
import { removeRepositoryIssues } from '../store/issues.js';

export const REPOSITORY_CONSUMER = 'collaboration-repository';

export function repositoryConsumer(log: Logger): Omit<ConsumerOptions<CollaborationTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: REPOSITORY_CONSUMER,
    filter: 'repository.repo.>',
    async handle(event, tx) {
      if (event.subject !== 'repository.repo.deleted') return;
      const id = Number((event.payload as repository.RepositoryDeleted | undefined)?.repository?.id);
      if (!id) {
        log.warn({ id: event.id, subject: event.subject }, 'ignoring malformed repository deletion event');
        return;
      }
      await removeRepositoryIssues(tx, id);
    },
  };
}
