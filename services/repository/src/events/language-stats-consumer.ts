// Keeps language statistics current: on repository.push to a repository's default branch,
// computes the languages of the pushed commit (cached per commit, so a redelivered event
// costs one lookup), from the previous head's and the files the push changed where it can.
// The work writes its own rows and is idempotent, so it runs without the event's
// transaction, and other pushes are not even looked at (kit ConsumerOptions.wants).
import type { ConsumerOptions, Logger } from '@anvil/kit';
import type { repository as pb } from '@anvil/proto';
import { refreshLanguages, type LanguageDeps } from '../domain/language-stats.js';
import type { RepositoryTx } from '../store/db.js';
import { isZeroId } from '@anvil/kit';

export const LANGUAGE_STATS_CONSUMER = 'repository-language-stats';

/** A push that moved (not deleted) its repository's default branch. */
function toDefaultBranch(push: pb.Push | undefined): boolean {
  const repo = push?.repository;
  return Boolean(push && repo?.id && push.ref === `refs/heads/${repo.default_branch}` && !isZeroId(push.after));
}

export function languageStatsConsumer(log: Logger, deps: () => LanguageDeps): Omit<ConsumerOptions<RepositoryTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: LANGUAGE_STATS_CONSUMER,
    filter: 'repository.push',
    // Only a push to the default branch; computing twice gives the same rows.
    wants: (event) => toDefaultBranch(event.payload as pb.Push | undefined),
    idempotent: true,
    async handle(event) {
      const push = event.payload as pb.Push | undefined;
      const repo = push?.repository;
      if (!push || !repo || !toDefaultBranch(push)) return;
      try {
        await refreshLanguages(deps(), { id: Number(repo.id), ownerLogin: repo.owner_login, name: repo.name }, push.after, push.before);
      } catch (err) {
        // The repository may be gone or renamed since: /languages computes on demand anyway.
        log.warn({ err, id: event.id, repository: repo.id }, 'computing languages after a push failed');
      }
    },
  };
}
