// Which event makes which notification threads (Gitea's services/uinotification/notify.go),
// as a pure rule over the events collaboration publishes. Most changes go to everyone who
// watches the issue or its repository; an assignment only to the assignee, a review request
// only to the reviewer just asked (the event names them). The actor is never notified of
// their own change.
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

interface IssueLike { id?: number; repository_id?: number; is_pull?: boolean }
interface UserLike { id?: number }

/** Issue actions that notify watchers; the rest (labels, milestones, deletion) do not. */
const ISSUE_ACTIONS = new Set(['opened', 'edited', 'closed', 'reopened']);
/** Pull request actions that notify watchers (review_requested is handled apart). */
const PULL_ACTIONS = new Set(['opened', 'edited', 'closed', 'reopened', 'synchronized', 'review_approved', 'review_rejected', 'review_comment', 'review_dismissed']);

function factsOf(issue: IssueLike | undefined, sender: UserLike | undefined, rest: Partial<NotifyFacts>): NotifyFacts | undefined {
  if (!issue?.id || !issue.repository_id) return undefined;
  return {
    issueId: Number(issue.id), repositoryId: Number(issue.repository_id), source: issue.is_pull ? 'pull' : 'issue',
    actorId: Number(sender?.id ?? 0), commentId: 0, recipients: 'watchers', ...rest,
  };
}

/**
 * The notifications one collaboration event calls for, or undefined when it calls for none.
 * `subject` is context-relative (`collaboration.issue_comment.created`).
 */
export function notifyFactsOf(subject: string, payload: unknown): NotifyFacts | undefined {
  const [, aggregate, action] = subject.split('.');
  const event = (payload ?? {}) as {
    issue?: IssueLike; sender?: UserLike; assignee?: UserLike; comment?: { id?: number };
    pull_request?: { issue?: IssueLike }; requested_reviewer?: UserLike;
  };
  if (aggregate === 'issue') {
    if (action === 'assigned') {
      const userId = Number(event.assignee?.id ?? 0);
      return userId ? factsOf(event.issue, event.sender, { recipients: 'user', userId }) : undefined;
    }
    return ISSUE_ACTIONS.has(action) ? factsOf(event.issue, event.sender, {}) : undefined;
  }
  if (aggregate === 'issue_comment') {
    return action === 'created' ? factsOf(event.issue, event.sender, { commentId: Number(event.comment?.id ?? 0) }) : undefined;
  }
  if (aggregate === 'pull_request') {
    const issue = { ...event.pull_request?.issue, is_pull: true };
    if (action === 'review_requested') {
      // A team's request names no one: its members are not told (Gitea tells each of them;
      // collaboration does not know a team's members).
      const userId = Number(event.requested_reviewer?.id ?? 0);
      return userId ? factsOf(issue, event.sender, { recipients: 'user', userId }) : undefined;
    }
    return PULL_ACTIONS.has(action) ? factsOf(issue, event.sender, {}) : undefined;
  }
  return undefined;
}
