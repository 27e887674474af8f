// Consumes the repository service's repository events: a deleted repository's issues, labels,
// milestones and watches go with it (nothing else of the repository is copied here), and a
// created repository is watched by whoever created it, as Gitea does.
import type { ConsumerOptions, Logger } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import type { CollaborationTx } from '../store/db.js';
import { removeRepositoryIssues } from '../store/issues.js';
import { changeWatch, removeRepositoryWatches } from '../store/watches.js';

export const REPOSITORY_CONSUMER = 'collaboration-repository';

export function repositoryConsumer(log: Logger): Omit<ConsumerOptions<CollaborationTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: REPOSITORY_CONSUMER,
    filter: 'repository.repo.>',
    async handle(event, tx) {
      if (event.subject === 'repository.repo.created') {
        const created = event.payload as repository.RepositoryCreated | undefined;
        const id = Number(created?.repository?.id ?? 0);
        const creator = Number(created?.actor_id ?? 0);
        // The relay publishes the repo_watch event written here with the next outbox poll.
        if (id && creator > 0) await changeWatch(tx, id, creator, true);
        return;
      }
      if (event.subject !== 'repository.repo.deleted') return;
      const id = Number((event.payload as repository.RepositoryDeleted | undefined)?.repository?.id);
      if (!id) {
        log.warn({ id: event.id, subject: event.subject }, 'ignoring malformed repository deletion event');
        return;
      }
      await removeRepositoryIssues(tx, id);
      await removeRepositoryWatches(tx, id);
    },
  };
}
