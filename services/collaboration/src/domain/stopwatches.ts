// Stopwatches (Gitea's routers/api/v1/repo/issue_stopwatch.go and models/issues/stopwatch.go):
// a user runs at most one per issue (starting it again is 409) and, as in Gitea, starting one
// stops the user's other running stopwatch. Stopping adds the measured time as a tracked time;
// cancelling drops it. Those who may write the issue or pull request and track time there
// may use one; every refusal is 403, as Gitea answers.
import { DomainError, forbidden, type Caller, type RepositoryScope } from '@anvil/kit';
import type { ChangeContext, Issue } from './issue-store.js';
import { changeContext } from './issues.js';
import { requireNotArchived, type ScopedRepository } from './scope.js';
import { canUseTimeTracker, issueInScope, type TimeTrackingDeps } from './time-tracking.js';
import type { TrackedTime } from './tracked-times.js';

export interface Stopwatch {
  userId: number;
  issueId: number;
  issueIndex: number;
  issueTitle: string;
  repositoryId: number;
  createdAt: Date;
}

export interface StopwatchStore {
  /**
   * Starts the user's stopwatch on the issue with its start_tracking entry, after stopping
   * (and tracking) any other of theirs; false when one already runs on this issue.
   */
  start(context: ChangeContext, issue: Issue): Promise<boolean>;
  /** Stops it and adds the time it measured; undefined when none ran. */
  stop(context: ChangeContext, issue: Issue): Promise<TrackedTime | undefined>;
  /** Drops it with a cancel_tracking entry; false when none ran. */
  cancel(context: ChangeContext, issue: Issue): Promise<boolean>;
  /** The user's running stopwatches, oldest first. */
  listForUser(userId: number, page: { offset: number; limit: number }): Promise<{ items: Stopwatch[]; total: number }>;
}

export interface StopwatchDeps extends TimeTrackingDeps {
  stopwatches: StopwatchStore;
}

const noStopwatch = () => new DomainError('conflict', 'cannot stop/cancel a non existent stopwatch', 'stopwatch_not_running');

/**
 * Gitea's prepareIssueForStopwatch: the issue, when the caller may track time on it (the
 * route table asked for write, Gitea's CanWriteIssuesOrPulls there).
 */
async function stopwatchIssue(deps: StopwatchDeps, scope: RepositoryScope | undefined, caller: Caller, index: number): Promise<{ repository: ScopedRepository; issue: Issue }> {
  const { repository, issue } = await issueInScope(deps, scope, index);
  if (!canUseTimeTracker(deps, repository, issue, caller)) throw forbidden('Cannot use time tracker', 'time_tracking_denied');
  requireNotArchived(repository);
  return { repository, issue };
}

export async function startStopwatch(deps: StopwatchDeps, scope: RepositoryScope | undefined, caller: Caller, index: number): Promise<void> {
  const { repository, issue } = await stopwatchIssue(deps, scope, caller, index);
  if (!(await deps.stopwatches.start(changeContext(repository, caller), issue))) {
    throw new DomainError('conflict', 'cannot start a stopwatch again if it already exists', 'stopwatch_running');
  }
}

export async function stopStopwatch(deps: StopwatchDeps, scope: RepositoryScope | undefined, caller: Caller, index: number): Promise<void> {
  const { repository, issue } = await stopwatchIssue(deps, scope, caller, index);
  if (!(await deps.stopwatches.stop(changeContext(repository, caller), issue))) throw noStopwatch();
}

export async function cancelStopwatch(deps: StopwatchDeps, scope: RepositoryScope | undefined, caller: Caller, index: number): Promise<void> {
  const { repository, issue } = await stopwatchIssue(deps, scope, caller, index);
  if (!(await deps.stopwatches.cancel(changeContext(repository, caller), issue))) throw noStopwatch();
}

export function listStopwatches(deps: StopwatchDeps, caller: Caller, page: { offset: number; limit: number }) {
  return deps.stopwatches.listForUser(caller.userId, page);
}
