// Reviews of pull requests (Gitea's routers/api/v1/repo/pull_review.go, services/pull/review.go):
// create (pending or submitted), submit, read, delete, dismiss, and the latest verdict of each
// reviewer for the merge rules. A review is official when its reviewer may write.
import { DomainError, forbidden, invalid, notFound, type Caller, type RepositoryScope } from '@anvil/kit';
import { changeContext } from './issues.js';
import type { ChangeContext } from './issue-store.js';
import type { Pull } from './pull-store.js';
import type { PullDeps } from './pulls.js';
import { atLeast, requireNotArchived, scopedRepository } from './scope.js';
import { requireReviewDismisser, requireReviewRequester } from './issue-rules.js';
import type { UserProfile } from './users.js';

export const REVIEW_STATES = ['APPROVED', 'PENDING', 'COMMENT', 'REQUEST_CHANGES', 'REQUEST_REVIEW'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

export interface Review {
  id: number;
  pullIndex: number;
  reviewerId: number;
  reviewer?: UserProfile;
  state: ReviewState;
  body: string;
  commitId: string;
  official: boolean;
  stale: boolean;
  dismissed: boolean;
  createdAt: Date;
  updatedAt: Date;
  commentsCount: number;
  /** A team asked to review (reviewerId 0), as it was when asked. */
  teamId: number;
  team?: TeamSnapshot;
}

/** A team as identity described it to the gateway (identity.Team's fields). */
export interface TeamSnapshot { id: number; name: string; [field: string]: unknown }

/** A comment on one line of the diff: `line` > 0 the new file's line, < 0 the old file's. */
export interface NewReviewComment {
  path: string;
  line: number;
  body: string;
  diffHunk: string;
}

export interface ReviewComment extends NewReviewComment {
  id: number;
  reviewId: number;
  pullIndex: number;
  posterId: number;
  poster?: UserProfile;
  commitId: string;
  originalCommitId: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewReview {
  reviewerId: number;
  state: ReviewState;
  body: string;
  commitId: string;
  official: boolean;
}

export interface ReviewStore {
  /** Stores the review, its comments and, when submitted, its event, in one transaction. */
  create(context: ChangeContext, pull: Pull, review: NewReview, comments?: NewReviewComment[]): Promise<Review>;
  /** The review's comments, oldest first. */
  comments(pull: Pull, reviewId: number): Promise<ReviewComment[]>;
  list(pull: Pull, page: { offset: number; limit: number }): Promise<{ items: Review[]; total: number }>;
  find(pull: Pull, id: number): Promise<Review | undefined>;
  update(context: ChangeContext, pull: Pull, id: number, change: Partial<Pick<Review, 'state' | 'body' | 'dismissed' | 'commitId'>>, event?: string): Promise<Review>;
  remove(pull: Pull, id: number): Promise<void>;
  /**
   * Adds REQUEST_REVIEW entries for the users and teams not already asked, with one
   * review_requested event each (a team's names its members from `teamMembers`).
   */
  request(context: ChangeContext, pull: Pull, reviewerIds: number[], teams?: TeamSnapshot[], teamMembers?: ReadonlyMap<number, number[]>): Promise<Review[]>;
  /** Removes the users' and teams' REQUEST_REVIEW entries. */
  cancelRequests(context: ChangeContext, pull: Pull, reviewerIds: number[], teamIds?: number[]): Promise<void>;
}

export interface ReviewDeps extends PullDeps {
  reviews: ReviewStore;
}

const reviewNotFound = () => notFound('The target couldn\'t be found.', 'review_not_found');

async function pullOf(deps: ReviewDeps, scope: RepositoryScope | undefined, index: number) {
  const repository = scopedRepository(scope);
  const pull = await deps.pulls.find(repository.id, index);
  if (!pull) throw notFound('The target couldn\'t be found.', 'pull_not_found');
  return { repository, pull };
}

/** Gitea's event names for a submitted review; empty or unknown makes a pending one. */
function stateOf(event: string): ReviewState {
  const upper = event.trim().toUpperCase();
  if (upper === 'APPROVE' || upper === 'APPROVED') return 'APPROVED';
  if (upper === 'REQUEST_CHANGES' || upper === 'REQUEST_CHANGE') return 'REQUEST_CHANGES';
  if (upper === 'COMMENT') return 'COMMENT';
  if (upper === '' || upper === 'PENDING') return 'PENDING';
  throw invalid(`unknown review event: ${event}`, 'invalid_review_event');
}

function checkVerdict(pull: Pull, caller: Caller, state: ReviewState, body: string, hasComments = false): void {
  if (pull.issue.posterId === caller.userId) {
    if (state === 'APPROVED') throw invalid('approve your own pull is not allowed', 'own_pull_approval');
    if (state === 'REQUEST_CHANGES') throw invalid('reject your own pull is not allowed', 'own_pull_rejection');
  }
  // Gitea lets comments on lines stand for the body.
  if ((state === 'REQUEST_CHANGES' || state === 'COMMENT') && !body.trim() && !hasComments) {
    throw invalid(`review event ${state} requires a body`, 'review_body_required');
  }
}

const eventOf = (state: ReviewState) => (state === 'APPROVED' ? 'review_approved' : state === 'REQUEST_CHANGES' ? 'review_rejected' : 'review_comment');

/** A comment must name a path, one side's line and say something; the gateway found its hunk. */
function checkComments(comments: readonly NewReviewComment[]): void {
  for (const c of comments) {
    if (!c.path.trim()) throw invalid('[comments]: path is required', 'invalid_review_comment');
    if (!Number.isSafeInteger(c.line) || c.line === 0) throw invalid(`[comments]: no line of ${c.path} is named`, 'invalid_review_comment');
    if (!c.body.trim()) throw invalid(`[comments]: the comment on ${c.path} has no body`, 'invalid_review_comment');
    if (!c.diffHunk) throw invalid(`[comments]: line ${Math.abs(c.line)} of ${c.path} is not in the diff`, 'invalid_review_comment');
  }
}

export async function createReview(deps: ReviewDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, input: { event: string; body: string; commitId: string; comments?: NewReviewComment[] }): Promise<Review> {
  const { repository, pull } = await pullOf(deps, scope, index);
  requireNotArchived(repository);
  if (pull.hasMerged || pull.issue.isClosed) throw new DomainError('invalid', 'cannot review a closed pull request', 'pull_closed');
  const state = stateOf(input.event);
  const comments = input.comments ?? [];
  checkComments(comments);
  checkVerdict(pull, caller, state, input.body, comments.length > 0);
  if (input.commitId && !/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(input.commitId)) throw invalid('commit_id is not a commit id', 'invalid_commit_id');
  return deps.reviews.create(changeContext(repository, caller), pull, {
    reviewerId: caller.userId, state, body: input.body, commitId: input.commitId || pull.headSha, official: atLeast(repository.permission, 'write'),
  }, comments);
}

/** GET /reviews/{id}/comments: a pending review's comments are its reviewer's alone, as Gitea shows them. */
export async function listReviewComments(deps: ReviewDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, id: number): Promise<ReviewComment[]> {
  const { pull } = await pullOf(deps, scope, index);
  const review = await deps.reviews.find(pull, id);
  if (!review || (review.state === 'PENDING' && review.reviewerId !== caller.userId)) throw reviewNotFound();
  return deps.reviews.comments(pull, id);
}

export async function listReviews(deps: ReviewDeps, scope: RepositoryScope | undefined, index: number, page: { offset: number; limit: number }) {
  const { pull } = await pullOf(deps, scope, index);
  return deps.reviews.list(pull, page);
}

export async function getReview(deps: ReviewDeps, scope: RepositoryScope | undefined, index: number, id: number): Promise<Review> {
  const { pull } = await pullOf(deps, scope, index);
  const review = await deps.reviews.find(pull, id);
  if (!review) throw reviewNotFound();
  return review;
}

export async function submitReview(deps: ReviewDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, id: number, input: { event: string; body: string }): Promise<Review> {
  const { repository, pull } = await pullOf(deps, scope, index);
  const review = await deps.reviews.find(pull, id);
  if (!review || review.reviewerId !== caller.userId) throw reviewNotFound();
  if (review.state !== 'PENDING') throw invalid('only a pending review can be submitted', 'review_not_pending');
  const state = stateOf(input.event);
  if (state === 'PENDING') throw invalid('a review must be submitted with an event', 'invalid_review_event');
  const body = input.body || review.body;
  checkVerdict(pull, caller, state, body, review.commentsCount > 0);
  return deps.reviews.update(changeContext(repository, caller), pull, id, { state, body, commitId: pull.headSha }, eventOf(state));
}

export async function deleteReview(deps: ReviewDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, id: number): Promise<void> {
  const { repository, pull } = await pullOf(deps, scope, index);
  const review = await deps.reviews.find(pull, id);
  if (!review) throw reviewNotFound();
  if (review.reviewerId !== caller.userId && !atLeast(repository.permission, 'admin')) throw forbidden('only the reviewer or an admin may delete a review', 'review_delete_denied');
  await deps.reviews.remove(pull, id);
}

export async function dismissReview(deps: ReviewDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, id: number, undo: boolean): Promise<Review> {
  const { repository, pull } = await pullOf(deps, scope, index);
  requireReviewDismisser(repository);
  const review = await deps.reviews.find(pull, id);
  if (!review) throw reviewNotFound();
  if (review.state !== 'APPROVED' && review.state !== 'REQUEST_CHANGES') throw invalid('not allow to dismiss review (type is not APPROVED or REQUEST_CHANGES)', 'review_not_dismissible');
  return deps.reviews.update(changeContext(repository, caller), pull, id, { dismissed: !undo }, undo ? undefined : 'review_dismissed');
}

/** A review is stale once the pull's head moved past the commit it looked at (or it was marked so). */
export function isStale(review: { stale: boolean; commitId: string }, headSha: string): boolean {
  return review.stale || (review.commitId !== '' && review.commitId !== headSha);
}

/** The latest submitted verdict of each reviewer (comments and pending reviews set none). */
export function latestVerdicts(reviews: readonly Review[]): Review[] {
  const latest = new Map<number, Review>();
  for (const r of [...reviews].sort((a, b) => a.id - b.id)) {
    if (r.dismissed || r.state === 'PENDING' || r.state === 'COMMENT') continue;
    latest.set(r.reviewerId, r);
  }
  return [...latest.values()];
}

async function reviewerIdsOf(deps: ReviewDeps, logins: string[]): Promise<number[]> {
  const wanted = [...new Set(logins.map((l) => l.trim()).filter(Boolean))];
  const users = wanted.length ? await deps.issues.usersByLogin(wanted) : [];
  const missing = wanted.find((login) => !users.some((u) => u.login.toLowerCase() === login.toLowerCase()));
  if (missing) throw notFound(`user does not exist [uid: 0, name: ${missing}]`, 'user_not_found');
  return users.map((u) => u.id);
}

/** Teams only review pulls of an organization's repository; Gitea ignores them elsewhere. */
const teamsOf = (repository: { ownerIsOrg: boolean; ownerId: number }, teams: TeamSnapshot[]) =>
  (repository.ownerIsOrg ? teams.filter((t) => Number(t.org_id ?? repository.ownerId) === repository.ownerId) : []);

/**
 * Members of one team a review request notifies at most: their ids ride in the request's
 * event (up to 10 bytes each), which must stay well under NATS's payload limit (1 MiB).
 */
export const TEAM_MEMBERS_NOTIFIED_MAX = 10_000;

/**
 * POST /requested_reviewers (the poster or a writer; the poster cannot be asked to review
 * their own pull). `teamMembers`: each team's members by team id, whom its request notifies
 * (the first TEAM_MEMBERS_NOTIFIED_MAX of them).
 */
export async function requestReviews(
  deps: ReviewDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, logins: string[], teams: TeamSnapshot[] = [],
  teamMembers: ReadonlyMap<number, number[]> = new Map(),
): Promise<Review[]> {
  const { repository, pull } = await pullOf(deps, scope, index);
  requireNotArchived(repository);
  requireReviewRequester(repository, caller, pull.issue, 'choose');
  const ids = await reviewerIdsOf(deps, logins);
  if (ids.includes(pull.issue.posterId)) throw invalid('the poster of a pull request cannot be asked to review it', 'review_request_poster');
  const notified = new Map([...teamMembers].map(([team, members]) => [team, members.slice(0, TEAM_MEMBERS_NOTIFIED_MAX)]));
  return deps.reviews.request(changeContext(repository, caller), pull, ids, teamsOf(repository, teams), notified);
}

export async function cancelReviewRequests(deps: ReviewDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, logins: string[], teams: TeamSnapshot[] = []): Promise<void> {
  const { repository, pull } = await pullOf(deps, scope, index);
  requireNotArchived(repository);
  const ids = await reviewerIdsOf(deps, logins);
  // A reviewer may withdraw the request made of them, and only that.
  requireReviewRequester(repository, caller, pull.issue, 'remove', teams.length === 0 && ids.length > 0 && ids.every((id) => id === caller.userId));
  await deps.reviews.cancelRequests(changeContext(repository, caller), pull, ids, teamsOf(repository, teams).map((t) => t.id));
}
