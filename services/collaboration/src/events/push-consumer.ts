// Consumes the repository service's push event: every open pull request whose head or base is
// the pushed branch gets its git facts again (domain/pull-sync.ts), in one transaction with
// the events that says so. Idempotent: a redelivered push finds the facts already stored.
import type { ConsumerOptions, Logger, RepositoryScope } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import type { ChangeContext } from '../domain/issue-store.js';
import { outcomeOfPush, type PullGitReader } from '../domain/pull-sync.js';
import type { CollaborationTx } from '../store/db.js';
import { openPullsOnBranch, storeFacts, storeManualMerge } from '../store/pull-sync.js';
import { forgetBranchHead, rememberBranchHead } from '../store/pulls.js';

export const PUSH_CONSUMER = 'collaboration-pull-push';

/** The change context of a consumer acting on `repo` for `who` (the pusher, an auto-merge's doer). */
export function consumerContextOf(repo: repository.Repository, who: { id?: number | string; login?: string } | undefined): ChangeContext {
  const scope = { repository: repo, permission: 'admin', owner: null } as unknown as RepositoryScope;
  const sender = { id: Number(who?.id ?? 0), login: who?.login ?? '' } as ChangeContext['sender'];
  return {
    repository: {
      id: Number(repo.id), ownerId: Number(repo.owner_id), ownerLogin: repo.owner_login, ownerIsOrg: false, name: repo.name,
      isPrivate: repo.private, isArchived: repo.archived, permission: 'admin', scope,
    },
    sender, knownUsers: [],
  };
}

export function pushConsumer(log: Logger, git: () => PullGitReader<repository.Repository>): Omit<ConsumerOptions<CollaborationTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: PUSH_CONSUMER,
    filter: 'repository.push',
    async handle(event, tx) {
      const push = event.payload as repository.Push | undefined;
      const repo = push?.repository;
      if (!push || !repo?.id || !push.ref.startsWith('refs/heads/')) return;
      const branch = push.ref.slice('refs/heads/'.length);
      // The branch's head for the pulls based on it (base.sha), in this push's transaction.
      if (/^0+$/.test(push.after)) {
        await forgetBranchHead(tx, BigInt(repo.id), branch);
        return; // a deleted branch: its pulls keep their last head
      }
      await rememberBranchHead(tx, BigInt(repo.id), branch, push.after, { replace: true });
      const pulls = await openPullsOnBranch(tx, Number(repo.id), branch);
      if (!pulls.length) return;
      const pushed = Number(repo.id);
      for (const pull of pulls) {
        const fromFork = pull.headRepoId !== pull.repositoryId;
        let base: repository.Repository = repo;
        if (fromFork && pull.headRepoId === pushed) {
          // The fork's branch moved: its commits reach the base's refs/pull/<index>/head first.
          const fetched = await git().fetchForkHead(pull.repositoryId, pull.headRepoId, pull.headBranch, pull.index);
          if (!fetched) continue;
          base = fetched.base;
        }
        const context = consumerContextOf(base, push.pusher ?? undefined);
        const outcome = await outcomeOfPush(git(), { owner: base.owner_login, name: base.name }, { ...pull, fromFork });
        if (outcome.kind === 'synchronized') await storeFacts(tx, context, pull, outcome.facts);
        else if (outcome.kind === 'merged') {
          await storeManualMerge(tx, context, pull, { headSha: outcome.headSha, mergeCommitSha: outcome.mergeCommitSha, mergedById: Number(push.pusher?.id ?? 0) });
        }
      }
      log.debug({ repository: repo.id, branch, pulls: pulls.length }, 'pull requests updated after a push');
    },
  };
}
