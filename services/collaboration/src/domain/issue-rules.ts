// Who may act on an issue, a comment or a pull beyond the permission level the route needs.
// The level itself (read, write, admin) is declared once per route in the gateway's route
// table (`repoAccess`, Gitea's reqRepoReader / reqRepoWriter / reqAdmin) and arrives here as
// the signed resolution's permission; what is left are Gitea's rules that depend on the issue
// and the caller too. Each refuses with one message, Gitea's (a 403 at the gateway).
import { forbidden, invalid, type Caller } from '@anvil/kit';
import { atLeast, type ScopedRepository } from './scope.js';

/** Gitea's CanWriteIssuesOrPulls, in Anvil's one permission per repository. */
const isWriter = (repository: ScopedRepository) => atLeast(repository.permission, 'write');

/** PATCH /issues/{index} (and a pull's issue fields): its poster, or a writer (Gitea: a bare 403 to anyone else). */
export function requireIssueEditor(repository: ScopedRepository, caller: Caller, issue: { posterId: number }): void {
  if (!isWriter(repository) && issue.posterId !== caller.userId) {
    throw forbidden('user should be the poster or have a permission to write to a repo', 'issue_edit_denied');
  }
}

/** PATCH/DELETE /issues/comments/{id}: its poster, or a writer. */
export function requireCommentEditor(repository: ScopedRepository, caller: Caller, comment: { posterId: number }): void {
  if (!isWriter(repository) && comment.posterId !== caller.userId) {
    throw forbidden('user should be the poster or have a permission to write to a repo', 'comment_edit_denied');
  }
}

/** A locked issue takes comments and reactions only from writers and site admins (Gitea's locked conversation). */
export function requireMayTalkOn(repository: ScopedRepository, caller: Caller, issue: { isLocked: boolean }): void {
  if (issue.isLocked && !isWriter(repository) && !caller.isAdmin) throw forbidden('the issue is locked', 'issue_locked');
}

/**
 * merge_when_checks_succeed: writers only. Merging itself is decided by the repository service
 * (the base's merge whitelist lets a reader merge), so the merge route asks only for read.
 */
export function requireMergeScheduler(repository: ScopedRepository): void {
  if (!isWriter(repository)) throw forbidden('user should have a permission to write to a repo', 'auto_merge_denied');
}

/** DELETE /pulls/{index}/merge: the one who scheduled the merge, or a repository admin. */
export function requireAutoMergeCanceller(repository: ScopedRepository, caller: Caller, scheduled: { doerId: number }): void {
  if (scheduled.doerId !== caller.userId && !atLeast(repository.permission, 'admin')) {
    throw forbidden('user has no permission to cancel the scheduled auto merge', 'auto_merge_cancel_denied');
  }
}

/**
 * Dismissing or restoring a review: a repository admin. Gitea's route asks only for a token;
 * its handler refuses anyone but an admin with this message, so the rule lives here.
 */
export function requireReviewDismisser(repository: ScopedRepository): void {
  if (!atLeast(repository.permission, 'admin')) throw forbidden('Must be repo admin', 'review_dismiss_denied');
}

/**
 * Asking for or withdrawing reviews (Gitea's IsValidReviewRequest and
 * CanDoerChangeReviewRequests): the pull's poster, a writer, a collaborator or a member of an
 * organization team that reaches the pull requests even with read access only (the
 * resolution's `collaborator`); a reviewer may also withdraw their own request. Gitea
 * answers a refusal 422 with this message.
 */
export function requireReviewRequester(repository: ScopedRepository, caller: Caller, issue: { posterId: number }, change: 'choose' | 'remove', ownRequestOnly = false): void {
  if (isWriter(repository) || repository.scope?.collaborator || issue.posterId === caller.userId || (change === 'remove' && ownRequestOnly)) return;
  throw invalid(`Doer can't ${change} reviewer [user_id: ${caller.userId}, repo_id: ${repository.id}]`, 'review_request_denied');
}
