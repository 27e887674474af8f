// Pull requests (Gitea's routers/api/v1/repo/pull.go and services/pull): open, list, read,
// and record a merge. Collaboration runs no git: the gateway asks the repository service
// for the head's facts (pull_git.proto) and hands them in, so listing never runs git. Who
// may do what comes from the permission the gateway resolved (scope.ts), as for issues.
import { alreadyExists, DomainError, invalid, notFound, type Caller, type RepositoryScope } from '@anvil/kit';
import { changeContext, createIssueFields, type IssueDeps } from './issues.js';
import type { ForkFacts, NewPull, Pull, PullGitFacts, PullStore } from './pull-store.js';
import { requireNotArchived, scopedRepository } from './scope.js';

export interface PullDeps extends IssueDeps {
  pulls: PullStore;
}

const pullNotFound = () => notFound('The target couldn\'t be found.', 'pull_not_found');

export interface CreatePullInput {
  title: string;
  body: string;
  baseBranch: string;
  headBranch: string;
  /** A head in a fork of the base's network (the gateway resolved it); unset for a head in the base. */
  headRepository?: { id: number; ownerLogin: string; fork?: ForkFacts };
  facts: Omit<NewPull, 'baseBranch' | 'headBranch' | 'headRepoId' | 'headOwnerLogin' | 'headFork'>;
  assignees: string[];
  labels: number[];
  milestone: number;
  dueDate?: Date;
  assignable?: number[];
}

/** POST /pulls: a signed-in reader opens it; labels, milestone, assignees only from writers (as issues). */
export async function createPull(deps: PullDeps, scope: RepositoryScope | undefined, caller: Caller, input: CreatePullInput): Promise<Pull> {
  const repository = scopedRepository(scope);
  requireNotArchived(repository);
  const fromFork = input.headRepository && input.headRepository.id > 0 && input.headRepository.id !== repository.id ? input.headRepository : undefined;
  if (!fromFork && input.baseBranch === input.headBranch) throw invalid('Invalid PullRequest: There are no changes between the head and the base', 'same_branch');
  const issue = await createIssueFields(deps, repository, caller, {
    title: input.title, body: input.body, ref: '', assignees: input.assignees, labels: input.labels, milestone: input.milestone, dueDate: input.dueDate, closed: false,
    assignable: input.assignable,
  });
  const pull = await deps.pulls.create(changeContext(repository, caller), issue, {
    ...input.facts, baseBranch: input.baseBranch, headBranch: input.headBranch,
    headRepoId: fromFork?.id ?? repository.id, headOwnerLogin: fromFork?.ownerLogin ?? '', headFork: fromFork?.fork,
  });
  if (!pull) {
    throw alreadyExists(`pull request already exists for these targets [head_branch: ${input.headBranch}, base_branch: ${input.baseBranch}]`, 'pull_exists');
  }
  return pull;
}

export async function getPull(deps: PullDeps, scope: RepositoryScope | undefined, index: number): Promise<Pull> {
  const repository = scopedRepository(scope);
  const pull = await deps.pulls.find(repository.id, index);
  if (!pull) throw pullNotFound();
  return pull;
}

/** GET /pulls/{base}/{head}: `headRepoId` names a fork's head (0: a branch of this repository). */
export async function getPullByBranches(deps: PullDeps, scope: RepositoryScope | undefined, baseBranch: string, headBranch: string, headRepoId = 0): Promise<Pull> {
  const repository = scopedRepository(scope);
  const pull = await deps.pulls.findByBranches(repository.id, baseBranch, headBranch.replace(/^[^:]*:/, ''), headRepoId > 0 ? headRepoId : repository.id);
  if (!pull) throw pullNotFound();
  return pull;
}

export interface ListPullsInput {
  state: string;
  milestone: number;
  labels: number[];
  poster: string;
  offset: number;
  limit: number;
}

export async function listPulls(deps: PullDeps, scope: RepositoryScope | undefined, input: ListPullsInput): Promise<{ items: Pull[]; total: number }> {
  const repository = scopedRepository(scope);
  let posterId: number | undefined;
  if (input.poster.trim()) {
    const [user] = await deps.issues.usersByLogin([input.poster.trim()]);
    if (!user) throw notFound(`user does not exist [uid: 0, name: ${input.poster.trim()}]`, 'user_not_found');
    posterId = user.id;
  }
  return deps.pulls.list({ repository }, {
    state: input.state === 'closed' || input.state === 'all' ? input.state : 'open', type: 'pulls',
    labels: input.labels.map(String), milestones: input.milestone ? [String(input.milestone)] : [], q: '',
    posterId, offset: input.offset, limit: input.limit,
  });
}

/** PATCH /pulls/{index} with `base` (writers: the gateway's route checks it for that field): the gateway re-checked the pull against it. */
export async function changePullBase(deps: PullDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, baseBranch: string, facts: PullGitFacts): Promise<Pull> {
  const repository = scopedRepository(scope);
  requireNotArchived(repository);
  const pull = await deps.pulls.find(repository.id, index);
  if (!pull) throw pullNotFound();
  if (pull.hasMerged || pull.issue.isClosed) throw new DomainError('invalid', 'cannot change the base of a closed pull request', 'pull_closed');
  if (baseBranch === pull.headBranch) throw invalid('Invalid PullRequest: There are no changes between the head and the base', 'same_branch');
  if (baseBranch === pull.baseBranch) return pull;
  const changed = await deps.pulls.changeBase(changeContext(repository, caller), index, baseBranch, facts);
  if (changed === 'duplicate') throw alreadyExists(`pull request already exists for these targets [head_branch: ${pull.headBranch}, base_branch: ${baseBranch}]`, 'pull_exists');
  if (!changed) throw pullNotFound();
  return changed;
}

/**
 * Records a merge the repository service landed (the gateway merged first, as Gitea pushes
 * before it marks the pull): writers or the merge-whitelisted, whom the repository service
 * already let through. A merged or closed pull is refused as Gitea does.
 */
export async function markPullMerged(deps: PullDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, merge: { mergeCommitSha: string; headSha: string }): Promise<Pull> {
  const repository = scopedRepository(scope);
  const merged = await deps.pulls.markMerged(changeContext(repository, caller), index, { ...merge, mergedById: caller.userId });
  if (!merged) throw pullNotFound();
  // Merged with another commit: someone else's merge. With this one: ours, or our own push
  // seen first by the push consumer.
  if (merged.mergeCommitSha !== merge.mergeCommitSha) throw new DomainError('bad_request', 'The PR is already merged', 'already_merged');
  return merged;
}

