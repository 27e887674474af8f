// Tracked times and stopwatches → collaboration messages, shared by the gRPC adapter and the events.
import type { collaboration as pb } from '@anvil/proto';
import type { Stopwatch } from '../domain/stopwatches.js';
import type { TrackedTime } from '../domain/tracked-times.js';
import { issueMessage, timestamp, userMessage } from './messages.js';

export function trackedTimeMessage(t: TrackedTime): pb.TrackedTimeInput {
  return {
    id: t.id, issue_id: t.issueId, user_id: t.userId, user: t.user ? userMessage(t.user) : undefined, time: t.time,
    created_at: timestamp(t.createdAt), issue: t.issue ? issueMessage(t.issue) : undefined,
  };
}

/** Seconds are counted at the time of the answer, as Gitea's Stopwatch.Seconds(). */
export function stopwatchMessage(s: Stopwatch, now = new Date()): pb.StopwatchInput {
  return {
    created_at: timestamp(s.createdAt), seconds: Math.max(0, Math.floor((now.getTime() - s.createdAt.getTime()) / 1000)),
    issue_index: s.issueIndex, issue_title: s.issueTitle, repository_id: s.repositoryId,
  };
}
