// Which event makes which notification threads (Gitea's services/uinotification/notify.go),
// as a pure rule over the events collaboration publishes. Most changes go to everyone who
// watches the issue or its repository; an assignment only to the assignee, a review request
// only to the reviewer just asked or the members of the team asked (the event names them).
// The actor is never notified of their own change.
import type { NotificationSource } from './notifications.js';

export interface NotifyFacts {
  issueId: number;
  repositoryId: number;
  source: NotificationSource;
  actorId: number;
  /** The comment the change added (0 for none). */
  commentId: number;
  /** "watchers": the issue's and repository's watchers and the issue's participants; "user": one user. */
  recipients: 'watchers' | 'user';
  /** With recipients "user": who (the assignee, the reviewer asked). */
  userId?: number;
}

interface IssueLike { id?: number; repository_id?: number; is_pull?: boolean; user?: UserLike }
interface UserLike { id?: number }

/** Issue actions that notify watchers; the rest (labels, milestones, deletion) do not. */
const ISSUE_ACTIONS = new Set(['opened', 'edited', 'closed', 'reopened']);
/** Pull request actions that notify watchers (review_requested is handled apart). */
const PULL_ACTIONS = new Set(['opened', 'edited', 'closed', 'reopened', 'synchronized', 'review_approved', 'review_rejected', 'review_comment', 'review_dismissed']);

function factsOf(issue: IssueLike | undefined, sender: UserLike | undefined, rest: Partial<NotifyFacts>): NotifyFacts[] {
  if (!issue?.id || !issue.repository_id) return [];
  return [{
    issueId: Number(issue.id), repositoryId: Number(issue.repository_id), source: issue.is_pull ? 'pull' : 'issue',
    actorId: Number(sender?.id ?? 0), commentId: 0, recipients: 'watchers', ...rest,
  }];
}

/** One user's notification, none for no one. */
const toUser = (issue: IssueLike | undefined, sender: UserLike | undefined, userId: number) =>
  (userId ? factsOf(issue, sender, { recipients: 'user', userId }) : []);

/**
 * The notifications one collaboration event calls for (none: an empty list).
 * `subject` is context-relative (`collaboration.issue_comment.created`).
 */
export function notifyFactsOf(subject: string, payload: unknown): NotifyFacts[] {
  const [, aggregate, action] = subject.split('.');
  const event = (payload ?? {}) as {
    issue?: IssueLike; sender?: UserLike; assignee?: UserLike; comment?: { id?: number };
    pull_request?: { issue?: IssueLike }; requested_reviewer?: UserLike; requested_team_member_ids?: number[];
  };
  if (aggregate === 'issue') {
    if (action === 'assigned') return toUser(event.issue, event.sender, Number(event.assignee?.id ?? 0));
    return ISSUE_ACTIONS.has(action) ? factsOf(event.issue, event.sender, {}) : [];
  }
  if (aggregate === 'issue_comment') {
    return action === 'created' ? factsOf(event.issue, event.sender, { commentId: Number(event.comment?.id ?? 0) }) : [];
  }
  if (aggregate === 'pull_request') {
    const issue = { ...event.pull_request?.issue, is_pull: true };
    if (action === 'review_requested') {
      // A user asked, or each member of a team asked but the pull's poster (Gitea's
      // TeamReviewRequest).
      const reviewerId = Number(event.requested_reviewer?.id ?? 0);
      if (reviewerId) return toUser(issue, event.sender, reviewerId);
      const posterId = Number(issue.user?.id ?? 0);
      return (event.requested_team_member_ids ?? []).map(Number).filter((id) => id !== posterId)
        .flatMap((id) => toUser(issue, event.sender, id));
    }
    return PULL_ACTIONS.has(action) ? factsOf(issue, event.sender, {}) : [];
  }
  return [];
}
