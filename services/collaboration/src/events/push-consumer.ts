// Consumes the repository service's push event: every open pull request whose head or base is
// the pushed branch gets its git facts again (domain/pull-sync.ts), stored in one transaction
// with the events that say so. Idempotent: a redelivered push finds the facts already stored.
import type { ConsumerOptions, Logger, ReceivedEvent, RepositoryScope } from '@anvil/kit';
import type { identity, repository } from '@anvil/proto';
import type { ChangeContext } from '../domain/issue-store.js';
import type { MergesInFlight } from '../domain/merges-in-flight.js';
import { outcomeOfPush, sharingCompares, type PullGitReader, type PushOutcome } from '../domain/pull-sync.js';
import type { CollaborationTx } from '../store/db.js';
import { anyPullOnBranch, openPullsOnBranch, storeFacts, storeManualMerge, type OpenPull } from '../store/pull-sync.js';
import { forgetBranchHead, rememberBranchHead } from '../store/pulls.js';
import { isZeroId } from '@anvil/kit';

export const PUSH_CONSUMER = 'collaboration-pull-push';

/** What repository's events carry of `repo` and the one who acted, for the events written here (webhook payloads). */
export interface RepositoryEventFacts {
  repository_owner?: identity.User | null;
  sender?: identity.User | null;
  repository_parent?: repository.RepositoryAccess | null;
}

/**
 * The change context of a consumer acting on `repo` for `who` (the pusher, an auto-merge's
 * doer). `facts`, when the event that started it was about `repo`, give the events written
 * here the repository's owner and parent and the sender as identity described them.
 */
export function consumerContextOf(repo: repository.Repository, who: { id?: number | string; login?: string } | undefined, facts: RepositoryEventFacts = {}): ChangeContext {
  // Gitea presents a pull's repository with the owner's permission after a push (admin shows the same).
  const scope = { repository: repo, permission: 'admin', owner: facts.repository_owner ?? null, parent: facts.repository_parent ?? null } as unknown as RepositoryScope;
  const sender = (facts.sender?.id && Number(facts.sender.id) === Number(who?.id)
    ? { ...facts.sender, id: Number(facts.sender.id) }
    : { id: Number(who?.id ?? 0), login: who?.login ?? '' }) as ChangeContext['sender'];
  return {
    repository: {
      id: Number(repo.id), ownerId: Number(repo.owner_id), ownerLogin: repo.owner_login, ownerIsOrg: false, name: repo.name,
      isPrivate: repo.private, isArchived: repo.archived, permission: 'admin', scope,
    },
    sender, knownUsers: [],
  };
}

interface PreparedPull {
  pull: OpenPull;
  base: repository.Repository;
  outcome: PushOutcome;
}

/** The pushed branch of a push event, or undefined when no pull can care. */
function pushedBranch(event: ReceivedEvent): { push: repository.Push; repo: repository.Repository; branch: string } | undefined {
  const push = event.payload as repository.Push | undefined;
  const repo = push?.repository;
  if (!push || !repo?.id || !push.ref.startsWith('refs/heads/')) return undefined;
  return { push, repo, branch: push.ref.slice('refs/heads/'.length) };
}

/**
 * The git facts are asked for in `prepare`, before the event's transaction: one compare per
 * pull (a repository with thousands of pulls on one base asks thousands), and a transaction
 * that held the pulls' rows meanwhile outlived its timeout and blocked every merge of the
 * repository until it did. The transaction then stores them for the pulls whose head is
 * still the one compared; a pull merged, closed or moved on meanwhile is left to the event
 * that did it.
 */
export function pushConsumer(
  log: Logger, db: CollaborationTx, git: () => PullGitReader<repository.Repository>, merges: MergesInFlight,
): Omit<ConsumerOptions<CollaborationTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: PUSH_CONSUMER,
    filter: 'repository.push',
    // A branch no pull request touches: nothing to compare and no base.sha to keep (its head
    // is taken from git when its first pull is opened), so no transaction at all.
    async wants(event) {
      const pushed = pushedBranch(event);
      if (!pushed) return false;
      // A merge's own push: re-checked once the merge is recorded (merges-in-flight.ts).
      await merges.ended(Number(pushed.repo.id));
      return anyPullOnBranch(db, Number(pushed.repo.id), pushed.branch);
    },
    async prepare(event): Promise<PreparedPull[]> {
      const pushed = pushedBranch(event);
      if (!pushed || isZeroId(pushed.push.after)) return [];
      const { repo, branch } = pushed;
      const prepared: PreparedPull[] = [];
      const reader = sharingCompares(git());
      for (const pull of await openPullsOnBranch(db, Number(repo.id), branch, { lock: false })) {
        const fromFork = pull.headRepoId !== pull.repositoryId;
        let base: repository.Repository = repo;
        if (fromFork && pull.headRepoId === Number(repo.id)) {
          // The fork's branch moved: its commits reach the base's refs/pull/<index>/head first.
          const fetched = await git().fetchForkHead(pull.repositoryId, pull.headRepoId, pull.headBranch, pull.index);
          if (!fetched) continue;
          base = fetched.base;
        }
        prepared.push({ pull, base, outcome: await outcomeOfPush(reader, { owner: base.owner_login, name: base.name }, { ...pull, fromFork }) });
      }
      return prepared;
    },
    async handle(event, tx, prepared) {
      const pushed = pushedBranch(event);
      if (!pushed) return;
      const { push, repo, branch } = pushed;
      // The branch's head for the pulls based on it (base.sha), in this push's transaction.
      if (isZeroId(push.after)) {
        await forgetBranchHead(tx, BigInt(repo.id), branch);
        return; // a deleted branch: its pulls keep their last head
      }
      await rememberBranchHead(tx, BigInt(repo.id), branch, push.after);
      const outcomes = (prepared ?? []) as PreparedPull[];
      if (!outcomes.length) return;
      const current = new Map((await openPullsOnBranch(tx, Number(repo.id), branch)).map((p) => [p.issueId, p]));
      for (const { pull: compared, base, outcome } of outcomes) {
        // As it is now, under its lock: still at the head that was compared, or left alone.
        const pull = current.get(compared.issueId);
        if (pull?.headSha !== compared.headSha) continue;
        // A fork's push moves pulls of its parent: the push's owner and parent are the fork's.
        const context = consumerContextOf(base, push.pusher ?? undefined, base === repo ? push : { sender: push.sender });
        if (outcome.kind === 'synchronized') await storeFacts(tx, context, pull, outcome.facts);
        else if (outcome.kind === 'merged') {
          await storeManualMerge(tx, context, pull, { headSha: outcome.headSha, mergeCommitSha: outcome.mergeCommitSha, mergedById: Number(push.pusher?.id ?? 0) });
        }
      }
      log.debug({ repository: repo.id, branch, pulls: outcomes.length }, 'pull requests updated after a push');
    },
  };
}
