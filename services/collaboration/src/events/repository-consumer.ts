// Consumes the repository service's repository events: a deleted repository's issues, labels,
// milestones and watches go with it, a created repository is watched by whoever created it,
// as Gitea does, and forks are kept as the events describe them (the head.repo of pull
// events from a fork, store/fork-repositories.ts); nothing else of a repository is copied.
import type { ConsumerOptions, Logger } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import type { CollaborationTx } from '../store/db.js';
import { forgetFork, putFork } from '../store/fork-repositories.js';
import { removeRepositoryIssues } from '../store/issues.js';
import { changeWatch, recordCreatorWatch, removeRepositoryWatches } from '../store/watches.js';

export const REPOSITORY_CONSUMER = 'collaboration-repository';

export function repositoryConsumer(log: Logger): Omit<ConsumerOptions<CollaborationTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: REPOSITORY_CONSUMER,
    filter: 'repository.repo.>',
    async handle(event, tx) {
      if (event.subject === 'repository.repo.created' || event.subject === 'repository.repo.updated') {
        const changed = event.payload as repository.RepositoryCreated | undefined;
        const id = Number(changed?.repository?.id ?? 0);
        if (!id) return;
        // fork_id is 0 for a fork whose parent was deleted: it stands alone, no pull's head.
        if (Number(changed!.repository!.fork_id) > 0) {
          await putFork(tx, id, { repository: changed!.repository, repository_owner: changed!.repository_owner, repository_parent: changed!.repository_parent });
        } else if (event.subject === 'repository.repo.updated') await forgetFork(tx, id);
        const creator = Number(changed!.actor_id ?? 0);
        if (event.subject === 'repository.repo.created' && creator > 0) {
          // The repository service counts the creator when it makes the row, and its event
          // shows that count. One from before it did (old pods of a rolling update) shows
          // none: that watch then counts itself as any other start does.
          if (Number(changed!.repository!.num_watches ?? 0) > 0) await recordCreatorWatch(tx, id, creator);
          else await changeWatch(tx, id, creator, true);
        }
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
      await forgetFork(tx, id);
    },
  };
}
