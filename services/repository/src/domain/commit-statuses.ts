// Commit statuses (Gitea's routers/api/v1/repo/status.go and models/git/commit_status.go):
// CI systems set a state per context on a commit; the latest status of each context decides
// the commit's combined state, which branch protection's status checks demand before a
// merge. Setting one needs write permission and publishes `status` through the outbox.
import { invalid, notFound, type Caller } from '@anvil/kit';
import { globToRegExp } from './glob.js';
import type { Owner } from './owner.js';
import type { RepositoryAccess } from './repositories.js';
import type { Repository } from './repository.js';
import type { RepositoryStore } from './store.js';
import type { CommitInfo } from './push.js';

export const COMMIT_STATUS_STATES = ['pending', 'success', 'error', 'failure', 'warning', 'skipped'] as const;
export type CommitStatusState = (typeof COMMIT_STATUS_STATES)[number];
export type CombinedState = 'pending' | 'success' | 'failure';

export const isCommitStatusState = (value: string): value is CommitStatusState => (COMMIT_STATUS_STATES as readonly string[]).includes(value);

export interface CommitStatus {
  repositoryId: number;
  sha: string;
  /** 1, 2, 3… among the statuses of this commit in this repository. */
  index: number;
  state: CommitStatusState;
  targetUrl: string;
  description: string;
  context: string;
  creatorId: number;
  created_at: Date;
  updated_at: Date;
}

/** A status as read back, with its creator from the owner read model (undefined when gone). */
export interface CommitStatusView extends CommitStatus {
  creator?: Owner;
}

export type NewCommitStatus = Pick<CommitStatus, 'repositoryId' | 'sha' | 'state' | 'targetUrl' | 'description' | 'context' | 'creatorId'>;

export type CommitStatusSort = 'newest' | 'oldest' | 'recentupdate' | 'leastupdate' | 'leastindex' | 'highestindex';

export interface CommitStatusQuery {
  state?: CommitStatusState;
  sort: CommitStatusSort;
  offset: number;
  limit: number;
}

/** The `status` event, written in the transaction that stores the status. */
export interface CommitStatusEvent {
  repository: Repository;
  status: CommitStatus;
  creator: { id: number; login: string };
  commit?: CommitInfo;
}

/** How commit statuses are kept; src/store/commit-statuses.ts implements it over Prisma. */
export interface CommitStatusStore {
  /** Gives the status the commit's next index and writes it with its event, in one transaction. */
  create(status: NewCommitStatus, event: (stored: CommitStatus) => CommitStatusEvent): Promise<CommitStatus>;
  list(repositoryId: number, sha: string, query: CommitStatusQuery): Promise<{ items: CommitStatusView[]; total: number }>;
  /** The latest status of every context of the commit, most recently set first. */
  latestPerContext(repositoryId: number, sha: string): Promise<CommitStatusView[]>;
}

/** The git questions statuses ask, over the repository's bare directory. */
export interface CommitStatusGit {
  /** The full sha of the commit a sha, short sha, branch or tag names; undefined when none. */
  resolveCommit(owner: string, name: string, revision: string): Promise<string | undefined>;
  /** The commit as a push lists it, for the event. */
  readCommit(owner: string, name: string, sha: string): Promise<CommitInfo | undefined>;
}

export interface CommitStatusDeps {
  store: RepositoryStore;
  statuses: CommitStatusStore;
  git: CommitStatusGit;
}

/** The repository's canonical owner and name (for the URLs the gateway builds). */
export interface RepositoryName {
  owner: string;
  name: string;
}

const nameOf = (access: RepositoryAccess): RepositoryName => ({ owner: access.owner.login, name: access.repository.name });

async function commitOf(deps: CommitStatusDeps, access: RepositoryAccess, revision: string): Promise<string | undefined> {
  if (access.repository.empty || !revision) return undefined;
  return deps.git.resolveCommit(access.repository.owner_login, access.repository.name, revision);
}

const commitNotFound = (revision: string) => notFound(`object does not exist [id: ${revision}, rel_path: ]`, 'commit_not_found');

export interface CreateCommitStatusInput {
  sha: string;
  state: string;
  targetUrl: string;
  description: string;
  context: string;
}

/**
 * POST /statuses/{sha}: `sha` may be short or a ref (Gitea's GetCommit accepts both); the
 * status is stored under the full sha. Text fields are trimmed as Gitea trims them; an empty
 * context is "default".
 */
export async function createCommitStatus(deps: CommitStatusDeps, access: RepositoryAccess, input: CreateCommitStatusInput, caller: Caller): Promise<{ status: CommitStatusView; repository: RepositoryName }> {
  if (!isCommitStatusState(input.state)) throw invalid(`[state]: must be one of ${COMMIT_STATUS_STATES.join(', ')}`, 'invalid_state');
  const sha = await commitOf(deps, access, input.sha.trim());
  if (!sha) throw commitNotFound(input.sha);
  const repo = access.repository;
  const commit = await deps.git.readCommit(repo.owner_login, repo.name, sha);
  const stored = await deps.statuses.create({
    repositoryId: repo.id, sha, state: input.state, creatorId: caller.userId,
    targetUrl: input.targetUrl.trim(), description: input.description.trim(), context: input.context.trim() || 'default',
  }, (status) => ({ repository: repo, status, creator: { id: caller.userId, login: caller.login }, commit }));
  const creator = await deps.store.findOwnerById(caller.userId);
  return { status: { ...stored, creator }, repository: nameOf(access) };
}

export interface ListCommitStatusesInput {
  /** A sha, or with byRef a branch, tag or commit. */
  revision: string;
  byRef: boolean;
  sort: string;
  state: string;
  offset: number;
  limit: number;
}

const SORTS = new Set<CommitStatusSort>(['oldest', 'recentupdate', 'leastupdate', 'leastindex', 'highestindex']);

/**
 * GET /statuses/{sha} and /commits/{ref}/statuses. By sha, a revision that names no commit
 * lists nothing (Gitea keeps the string as the sha); by ref it is not_found.
 */
export async function listCommitStatuses(deps: CommitStatusDeps, access: RepositoryAccess, input: ListCommitStatusesInput): Promise<{ items: CommitStatusView[]; total: number; repository: RepositoryName }> {
  const sha = await commitOf(deps, access, input.revision);
  if (!sha && input.byRef) throw commitNotFound(input.revision);
  const query: CommitStatusQuery = {
    state: isCommitStatusState(input.state) ? input.state : undefined,
    sort: SORTS.has(input.sort as CommitStatusSort) ? (input.sort as CommitStatusSort) : 'newest',
    offset: input.offset, limit: input.limit,
  };
  const { items, total } = await deps.statuses.list(access.repository.id, sha ?? input.revision, query);
  return { items, total, repository: nameOf(access) };
}

/**
 * Gitea's CommitStatusStates.Combine (GitHub's rule): failure when any state is error or
 * failure; success when every state is success, warning or skipped; pending otherwise,
 * including when there is none.
 */
export function combineStates(states: readonly CommitStatusState[]): CombinedState {
  if (states.some((s) => s === 'error' || s === 'failure')) return 'failure';
  const succeeded = states.filter((s) => s === 'success' || s === 'warning' || s === 'skipped').length;
  return succeeded > 0 && succeeded === states.length ? 'success' : 'pending';
}

/** GET /commits/{ref}/status: the combined state is computed over every context, the statuses paged. */
export async function combinedStatus(deps: CommitStatusDeps, access: RepositoryAccess, revision: string, page: { offset: number; limit: number }): Promise<{ state: CombinedState; sha: string; statuses: CommitStatusView[]; total: number; access: RepositoryAccess }> {
  const sha = await commitOf(deps, access, revision);
  if (!sha) throw commitNotFound(revision);
  const latest = await deps.statuses.latestPerContext(access.repository.id, sha);
  return {
    state: combineStates(latest.map((s) => s.state)), sha,
    statuses: latest.slice(page.offset, page.offset + page.limit), total: latest.length, access,
  };
}

/**
 * Gitea's MergeRequiredContextsCommitStatus over the latest status of each context: with no
 * required contexts, the combined state of all of them; otherwise each required pattern
 * (a glob, `*` crossing `/`, case-sensitive as gobwas compiles it) takes the state of the
 * latest status whose context it matches, pending when none does.
 */
export function requiredContextsState(latest: readonly Pick<CommitStatus, 'context' | 'state'>[], contexts: readonly string[]): CombinedState {
  if (latest.length === 0) return 'pending';
  if (contexts.length === 0) return combineStates(latest.map((s) => s.state));
  const states = [...new Set(contexts)].map((pattern) => {
    const matcher = globToRegExp(pattern, '');
    return latest.find((s) => matcher.test(s.context))?.state ?? 'pending';
  });
  return combineStates(states);
}

/**
 * Whether a commit passes branch protection's status checks (`enable_status_check` with
 * `status_check_contexts`): the merge code asks this before merging to a protected branch.
 */
export async function requiredStatusesMet(statuses: Pick<CommitStatusStore, 'latestPerContext'>, repositoryId: number, sha: string, contexts: readonly string[]): Promise<boolean> {
  return requiredContextsState(await statuses.latestPerContext(repositoryId, sha), contexts) === 'success';
}
