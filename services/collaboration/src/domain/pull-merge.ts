// POST /pulls/{index}/merge (Gitea's MergePullRequest) in one call from the gateway: the pull
// and its reviewers' verdicts are read here, the repository service merges as the caller
// (MergeToRef: every rule, the write turn and the ref move are its), and the merge is recorded
// here before the answer, as Gitea marks the pull merged before it answers. The gateway's
// signed resolution of the repository is forwarded, so the repository service resolves nothing
// again. merge_when_checks_succeed keeps the merge instead while the head's checks have not
// succeeded (auto-merge.ts); the commit status consumer performs it later through the same port.
import { DomainError, notFound, type Caller, type RepositoryScope } from '@anvil/kit';
import { scheduleAutoMerge, type AutoMergeDeps } from './auto-merge.js';
import type { MergesInFlight } from './merges-in-flight.js';
import type { RepositoryName } from './pull-sync.js';
import { markPullMerged } from './pulls.js';
import type { ReviewVerdict } from './pull-store.js';
import { scopedRepository } from './scope.js';

/** What the repository service's merge is told (its MergeToRef). */
export interface RepositoryMergeInput {
  baseBranch: string;
  /** The ref merged: the head branch, or the pull's own ref for a fork's head. */
  head: string;
  style: string;
  /** The commit message as git stores it (ending in a newline), '' for Gitea's default one. */
  message: string;
  pullIndex: number;
  pullTitle: string;
  /** The head branch to delete once merged ('' for none). */
  deleteHeadBranch: string;
  /** The head branch to delete when the repository deletes head branches by default. */
  defaultDeleteHeadBranch?: string;
  /** '' for any head. */
  expectedHeadSha: string;
  verdicts: ReviewVerdict[];
  forceMerge?: boolean;
  /** manually-merged: the base's commit that brought the head in. */
  mergeCommitId?: string;
  /** The base and head commits this pull's row holds (hints: the merge takes what the refs hold). */
  knownBaseSha?: string;
  knownHeadSha?: string;
}

/** The repository service's answers a merge needs. */
export interface PullMerger {
  /** The head's combined status is success (asked as the system). */
  checksSucceeded(repo: RepositoryName, sha: string): Promise<boolean>;
  /**
   * Merges as `doer`; a refusal (rules, conflicts, a race) throws DomainError. `scope`: the
   * gateway's signed resolution of the repository for `doer`, when there is one to forward.
   */
  merge(repo: RepositoryName, doer: Caller, input: RepositoryMergeInput, scope?: RepositoryScope): Promise<{ mergeCommitSha: string; headSha: string }>;
}

export interface PullMergeDeps extends AutoMergeDeps {
  merger: PullMerger;
  /** This process's merges on their way, which the push consumer waits for. */
  mergesInFlight: MergesInFlight;
}

export interface MergeRequest {
  style: string;
  /** As RepositoryMergeInput's. */
  message: string;
  /** undefined: the client did not say (the repository's default decides). */
  deleteBranchAfterMerge?: boolean;
  headCommitId: string;
  forceMerge: boolean;
  mergeCommitId: string;
  mergeWhenChecksSucceed: boolean;
}

/** Merges the pull now ('merged') or keeps the merge for when its checks succeed ('scheduled'). */
export async function mergePull(deps: PullMergeDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, request: MergeRequest): Promise<'merged' | 'scheduled'> {
  const repository = scopedRepository(scope);
  const found = await deps.pulls.findWithVerdicts(repository.id, index);
  if (!found) throw notFound('The target couldn\'t be found.', 'pull_not_found');
  const { pull, verdicts } = found;
  if (pull.hasMerged) throw new DomainError('bad_request', 'The PR is already merged', 'already_merged');
  if (pull.issue.isClosed) throw notFound('The target couldn\'t be found.', 'pull_closed');
  const name = { owner: repository.ownerLogin, name: repository.name };
  // Merged now when the head's checks already succeed (Gitea), else kept for the status consumer.
  if (request.mergeWhenChecksSucceed && request.style !== 'manually-merged' && !(await deps.merger.checksSucceeded(name, pull.headSha))) {
    await scheduleAutoMerge(deps, scope, caller, index, { style: request.style, message: request.message, deleteBranchAfterMerge: request.deleteBranchAfterMerge ?? false });
    return 'scheduled';
  }
  // A fork's head is merged from the base's copy (refs/pull/<index>/head): a branch of the same
  // name in the base is another branch, and the fork's branch is the fork's to keep. A head
  // branch that is gone falls back to that ref in the repository service too.
  const fromFork = pull.headRepoId > 0 && pull.headRepoId !== repository.id;
  const ownBranch = fromFork ? '' : pull.headBranch;
  const input: RepositoryMergeInput = {
    baseBranch: pull.baseBranch, head: fromFork ? `refs/pull/${index}/head` : `refs/heads/${pull.headBranch}`,
    style: request.style, message: request.message, pullIndex: index, pullTitle: pull.issue.title,
    deleteHeadBranch: request.deleteBranchAfterMerge ? ownBranch : '',
    defaultDeleteHeadBranch: request.deleteBranchAfterMerge === undefined ? ownBranch : '',
    expectedHeadSha: request.headCommitId, verdicts, forceMerge: request.forceMerge, mergeCommitId: request.mergeCommitId,
    knownBaseSha: pull.baseSha, knownHeadSha: pull.headSha,
  };
  // The push event the base's move raises is handled once the merge is recorded (merges-in-flight.ts).
  await deps.mergesInFlight.during(repository.id, async () => {
    const merged = await deps.merger.merge(name, caller, input, repository.scope);
    await markPullMerged(deps, scope, caller, index, merged);
  });
  return 'merged';
}
