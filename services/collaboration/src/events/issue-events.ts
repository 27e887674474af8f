// Issue events (proto/anvil/collaboration/v1/collaboration_events.proto IssueEvent),
// written as outbox rows in the transaction of the change they announce. Each carries what
// Gitea's issues webhook sends (action, issue, repository, sender, changes, labels), so
// the hooks service and notifications never call back.
import { outboxEvent, type OutboxEventRow } from '@anvil/kit';
import type { collaboration as pb, identity, repository } from '@anvil/proto';
import type { Comment } from '../domain/comments.js';
import type { ChangeContext, Issue, IssueEventFacts } from '../domain/issue-store.js';
import type { Pull } from '../domain/pull-store.js';
import { pullMessage } from '../grpc/pull-messages.js';
import { commentMessage, issueMessage, labelMessage, userMessage } from '../grpc/messages.js';
import { payloadRepositoryFacts } from './repository-facts.js';

export const ISSUE_EVENT_TYPE = 'anvil.collaboration.v1.IssueEvent';

/** `collaboration.issue.<action>`, e.g. collaboration.issue.label_updated. */
export const issueSubject = (action: IssueEventFacts['action']) => `collaboration.issue.${action}`;

/**
 * `pull`: the pull when the issue is one, for the pull_request_* webhooks, with its head's
 * repository when that is a fork (store/fork-repositories.ts).
 */
export function outboxRowOfIssueEvent(context: ChangeContext, issue: Issue, facts: IssueEventFacts, pull?: Pull, headRepository?: pb.HeadRepositoryInput): OutboxEventRow {
  const { scope } = context.repository;
  return outboxEvent(issueSubject(facts.action), ISSUE_EVENT_TYPE, {
    action: facts.action,
    issue: issueMessage(issue),
    repository: scope.repository as unknown as repository.RepositoryInput,
    repository_owner: (scope.owner ?? undefined) as unknown as identity.UserInput | undefined,
    sender: userMessage(context.sender),
    ...payloadRepositoryFacts(scope),
    changes: facts.changes ? { title_from: facts.changes.titleFrom, body_from: facts.changes.bodyFrom, ref_from: facts.changes.refFrom } : undefined,
    added_labels: (facts.addedLabels ?? []).map(labelMessage),
    removed_labels: (facts.removedLabels ?? []).map(labelMessage),
    assignee: facts.assignee ? userMessage(facts.assignee) : undefined,
    pull_request: pull ? pullMessage(pull) : undefined,
    head_repository: headRepository,
  } satisfies pb.IssueEventInput);
}

export const COMMENT_EVENT_TYPE = 'anvil.collaboration.v1.CommentEvent';

/** `collaboration.issue_comment.<action>` (Gitea's issue_comment webhook). */
export const commentSubject = (action: 'created' | 'edited' | 'deleted') => `collaboration.issue_comment.${action}`;

export function outboxRowOfCommentEvent(context: ChangeContext, action: 'created' | 'edited' | 'deleted', comment: Comment, issue: Issue, bodyFrom?: string, pull?: Pull): OutboxEventRow {
  const { scope } = context.repository;
  return outboxEvent(commentSubject(action), COMMENT_EVENT_TYPE, {
    action,
    comment: commentMessage(comment),
    issue: issueMessage(issue),
    repository: scope.repository as unknown as repository.RepositoryInput,
    repository_owner: (scope.owner ?? undefined) as unknown as identity.UserInput | undefined,
    sender: userMessage(context.sender),
    ...payloadRepositoryFacts(scope),
    changes: bodyFrom !== undefined ? { body_from: bodyFrom } : undefined,
    pull_request: pull ? pullMessage(pull) : undefined,
  } satisfies pb.CommentEventInput);
}
