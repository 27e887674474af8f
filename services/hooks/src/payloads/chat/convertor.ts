// Which part of a chat convertor handles which webhook event (Gitea's services/webhook
// payloader.go): every issue event is an "issue" message, every pull event but the review
// verdicts a "pull request" one, and comments on either a "comment".
import type { HookEvent } from '../../domain/hook-events.js';
import type { Payload, ReviewEvent } from './general.js';

/** A chat type's messages, one method per kind of event (Gitea's payloadConvertor). */
export interface ChatConvertor<T> {
  create(p: Payload): T;
  delete(p: Payload): T;
  fork(p: Payload): T;
  push(p: Payload): T;
  issue(p: Payload): T;
  issueComment(p: Payload): T;
  pullRequest(p: Payload): T;
  review(p: Payload, event: ReviewEvent): T;
  repository(p: Payload): T;
  status(p: Payload): T;
}

/**
 * The message for an event. Events no Anvil service fires yet (release, wiki, package,
 * workflows) have no message: Gitea fails such a delivery too.
 */
export function convert<T>(convertor: ChatConvertor<T>, event: HookEvent, p: Payload): T {
  switch (event) {
    case 'create': return convertor.create(p);
    case 'delete': return convertor.delete(p);
    case 'fork': return convertor.fork(p);
    case 'push': return convertor.push(p);
    case 'issues': case 'issue_assign': case 'issue_label': case 'issue_milestone':
      return convertor.issue(p);
    case 'issue_comment': case 'pull_request_comment':
      return convertor.issueComment(p);
    case 'pull_request': case 'pull_request_assign': case 'pull_request_label': case 'pull_request_milestone':
    case 'pull_request_sync': case 'pull_request_review_request':
      return convertor.pullRequest(p);
    case 'pull_request_review_approved': case 'pull_request_review_rejected': case 'pull_request_review_comment':
      return convertor.review(p, event);
    case 'repository': return convertor.repository(p);
    case 'status': return convertor.status(p);
    default: throw new Error(`no chat message for the ${event} event`);
  }
}
