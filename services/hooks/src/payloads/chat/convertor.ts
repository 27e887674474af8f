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

type MessageOf = <T>(convertor: ChatConvertor<T>, p: Payload) => T;

const issue: MessageOf = (c, p) => c.issue(p);
const comment: MessageOf = (c, p) => c.issueComment(p);
const pull: MessageOf = (c, p) => c.pullRequest(p);
const review = (event: ReviewEvent): MessageOf => (c, p) => c.review(p, event);

/**
 * The message of each event a chat hook is told of. Events no Anvil service fires yet
 * (release, wiki, package, workflows) have none: Gitea fails such a delivery, Anvil makes
 * none (deliveriesForEvent), so that an event kind added later cannot stall the consumer.
 */
const MESSAGES: Partial<Record<HookEvent, MessageOf>> = {
  create: (c, p) => c.create(p),
  delete: (c, p) => c.delete(p),
  fork: (c, p) => c.fork(p),
  push: (c, p) => c.push(p),
  issues: issue, issue_assign: issue, issue_label: issue, issue_milestone: issue,
  issue_comment: comment, pull_request_comment: comment,
  pull_request: pull, pull_request_assign: pull, pull_request_label: pull, pull_request_milestone: pull,
  pull_request_sync: pull, pull_request_review_request: pull,
  pull_request_review_approved: review('pull_request_review_approved'),
  pull_request_review_rejected: review('pull_request_review_rejected'),
  pull_request_review_comment: review('pull_request_review_comment'),
  repository: (c, p) => c.repository(p),
  status: (c, p) => c.status(p),
};

/** Whether chat hooks have a message for the event. */
export const hasChatMessage = (event: HookEvent): boolean => MESSAGES[event] !== undefined;

/** The message for an event; only for one that has a message (hasChatMessage). */
export function convert<T>(convertor: ChatConvertor<T>, event: HookEvent, p: Payload): T {
  const message = MESSAGES[event];
  if (!message) throw new Error(`no chat message for the ${event} event`);
  return message(convertor, p);
}
