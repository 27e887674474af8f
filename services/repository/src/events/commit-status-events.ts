// The `status` event (proto/anvil/repository/v1/repository_events.proto CommitStatusCreated),
// written as an outbox row in the transaction that stores the status: what Gitea's `status`
// webhook sends, for the hooks service.
import { outboxEvent, type OutboxEventRow } from '@anvil/kit';
import type { repository as pb } from '@anvil/proto';
import type { CommitStatusEvent } from '../domain/commit-statuses.js';
import { repositoryMessage, timestamp } from '../grpc/messages.js';
import type { EventFacts } from '../store/event-facts.js';

export const COMMIT_STATUS_SUBJECT = 'repository.status';

const at = (unixSeconds: number) => timestamp(new Date(unixSeconds * 1000));

/** `facts`: the repository's owner, the creator and a fork's parent, for the webhook payload (store/event-facts.ts). */
export function outboxRowOfCommitStatus(event: CommitStatusEvent, facts: EventFacts = {}): OutboxEventRow {
  const { status, commit } = event;
  return outboxEvent(COMMIT_STATUS_SUBJECT, 'anvil.repository.v1.CommitStatusCreated', {
    repository: repositoryMessage(event.repository),
    sha: status.sha,
    context: status.context,
    state: status.state,
    target_url: status.targetUrl,
    description: status.description,
    index: status.index,
    creator: event.creator,
    created_at: timestamp(status.created_at),
    commit: commit ? {
      id: commit.id,
      message: commit.message,
      author: { name: commit.authorName, email: commit.authorEmail, when: at(commit.authorTime) },
      committer: { name: commit.committerName, email: commit.committerEmail, when: at(commit.committerTime) },
      timestamp: at(commit.committerTime),
    } : undefined,
    ...facts,
  } satisfies pb.CommitStatusCreatedInput);
}
