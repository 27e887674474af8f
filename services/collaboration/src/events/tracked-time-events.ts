// Tracked-time and stopwatch events (proto/anvil/collaboration/v1/tracked_times.proto
// TrackedTimeEvent), written as outbox rows in the transaction of the change they announce.
import { outboxEvent, type OutboxEventRow } from '@anvil/kit';
import type { collaboration as pb, identity, repository } from '@anvil/proto';
import type { ChangeContext, Issue } from '../domain/issue-store.js';
import type { TrackedTime } from '../domain/tracked-times.js';
import { issueMessage, userMessage } from '../grpc/messages.js';
import { trackedTimeMessage } from '../grpc/tracked-time-messages.js';

export const TRACKED_TIME_EVENT_TYPE = 'anvil.collaboration.v1.TrackedTimeEvent';

export type TrackedTimeAction = 'added' | 'deleted' | 'reset' | 'stopwatch_started' | 'stopwatch_stopped' | 'stopwatch_cancelled';

/** `collaboration.tracked_time.<action>`, e.g. collaboration.tracked_time.added. */
export const trackedTimeSubject = (action: TrackedTimeAction) => `collaboration.tracked_time.${action}`;

export function outboxRowOfTrackedTimeEvent(context: ChangeContext, action: TrackedTimeAction, issue: Issue, time?: TrackedTime): OutboxEventRow {
  const { scope } = context.repository;
  // A stopwatch stopped because another started may be in another repository: only its id is known here.
  const sameRepository = issue.repositoryId === context.repository.id;
  return outboxEvent(trackedTimeSubject(action), TRACKED_TIME_EVENT_TYPE, {
    action,
    time: time ? trackedTimeMessage(time) : undefined,
    issue: issueMessage(issue),
    repository: (sameRepository ? scope.repository : { id: issue.repositoryId }) as unknown as repository.RepositoryInput,
    repository_owner: (sameRepository ? scope.owner ?? undefined : undefined) as unknown as identity.UserInput | undefined,
    sender: userMessage(context.sender),
  } satisfies pb.TrackedTimeEventInput);
}
