// Refreshes a repository's licenses (domain/git-facts.ts) after anything that moves its
// refs or names its default branch: creation (auto_init), pushes, branch creation and
// deletion, and edits (a new default branch). The work is outside the event's transaction.
import type { ConsumerOptions, Logger, ReceivedEvent } from '@anvil/kit';
import type { repository as pb } from '@anvil/proto';
import { licensesUntouched, refreshGitFacts, type GitFactsDeps } from '../domain/git-facts.js';
import type { RepositoryTx } from '../store/db.js';

export const GIT_FACTS_CONSUMER = 'repository-git-facts';

const SUBJECTS = new Set(['repository.repo.created', 'repository.repo.updated', 'repository.push', 'repository.branch.created', 'repository.branch.deleted']);

/**
 * Licenses are read from the default branch: a push, or a branch created or deleted, on
 * another branch changes nothing they say (most pushes of a busy repository).
 */
function affectsLicenses(event: ReceivedEvent): boolean {
  if (!SUBJECTS.has(event.subject)) return false;
  const payload = event.payload as { repository?: pb.Repository; ref?: string } | undefined;
  const repo = payload?.repository;
  if (!repo?.id) return false;
  if (event.subject === 'repository.push' || event.subject.startsWith('repository.branch.')) return payload?.ref === `refs/heads/${repo.default_branch}`;
  return true;
}

function untouchedByPush(event: ReceivedEvent, deps: GitFactsDeps): Promise<boolean> | false {
  if (event.subject !== 'repository.push') return false;
  const push = event.payload as pb.Push;
  const repo = push.repository!;
  return licensesUntouched(deps.git, { owner: repo.owner_login, name: repo.name }, push.before, push.after);
}

export function gitFactsConsumer(log: Logger, deps: () => GitFactsDeps): Omit<ConsumerOptions<RepositoryTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: GIT_FACTS_CONSUMER,
    filter: 'repository.>',
    // A push that left the root's license files as they were (compared through the cat-file
    // cache) changes nothing either: no repository read, no license read, no write.
    wants: async (event) => affectsLicenses(event) && !(await untouchedByPush(event, deps())),
    // Reading twice gives the same answer: no transaction or processed_event row per event.
    idempotent: true,
    async handle(event) {
      if (!affectsLicenses(event)) return;
      const id = Number((event.payload as { repository?: pb.Repository } | undefined)?.repository?.id ?? 0);
      if (!id) return;
      try {
        await refreshGitFacts(deps(), id);
      } catch (err) {
        // The repository may be gone since; the next change of its refs tries again.
        log.warn({ err, id: event.id, repository: id }, 'reading a repository\'s licenses failed');
      }
    },
  };
}
