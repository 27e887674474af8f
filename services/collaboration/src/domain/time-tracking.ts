// Who may track time where (Gitea's Repository.CanUseTimetracker and IsTimetrackerEnabled):
// time tracking is on when the site allows it ([service] ENABLE_TIMETRACKING) and the
// repository's built-in tracker has it on (internal_tracker, sent with the signed repository
// scope, so no call is made per request). With "only contributors" on, a user tracks time on
// an issue when they may write issues there, posted it or are assigned to it.
import { DomainError, forbidden, notFound, type Caller, type RepositoryScope } from '@anvil/kit';
import type { Issue } from './issue-store.js';
import type { IssueDeps } from './issues.js';
import { atLeast, scopedRepository, type ScopedRepository } from './scope.js';

export interface TimeTrackingDeps extends IssueDeps {
  /** `[service] ENABLE_TIMETRACKING`. */
  timeTrackingEnabled: boolean;
}

/** The repository's built-in tracker settings; a scope without them has Gitea's defaults (on). */
function trackerOf(repository: ScopedRepository) {
  const tracker = repository.scope.repository?.internal_tracker;
  return {
    enabled: tracker?.enable_time_tracker ?? true,
    onlyContributors: tracker?.allow_only_contributors_to_track_time ?? true,
  };
}

export const isTimeTrackingEnabled = (deps: TimeTrackingDeps, repository: ScopedRepository) => deps.timeTrackingEnabled && trackerOf(repository).enabled;

/** Gitea's CanUseTimetracker. */
export function canUseTimeTracker(deps: TimeTrackingDeps, repository: ScopedRepository, issue: Issue, caller: Caller): boolean {
  if (!isTimeTrackingEnabled(deps, repository)) return false;
  if (!trackerOf(repository).onlyContributors) return true;
  return atLeast(repository.permission, 'write') || issue.posterId === caller.userId || issue.assignees.some((a) => Number(a.id) === caller.userId);
}

/** Gitea answers 400 "time tracking disabled" to a change of tracked times while it is off. */
export const timeTrackingDisabled = () => new DomainError('bad_request', 'time tracking disabled', 'time_tracking_disabled');

export const issueNotFound = () => notFound('The target couldn\'t be found.', 'issue_not_found');

/** The scoped repository and the issue of a call, or 404. */
export async function issueInScope(deps: TimeTrackingDeps, scope: RepositoryScope | undefined, index: number) {
  const repository = scopedRepository(scope);
  const issue = await deps.issues.find(repository.id, index);
  if (!issue) throw issueNotFound();
  return { repository, issue };
}

/** For changes of tracked times: 400 while tracking is off, 403 for one who may not track here. */
export function requireTimeTracker(deps: TimeTrackingDeps, repository: ScopedRepository, issue: Issue, caller: Caller): void {
  if (canUseTimeTracker(deps, repository, issue, caller)) return;
  if (!isTimeTrackingEnabled(deps, repository)) throw timeTrackingDisabled();
  throw forbidden('user may not track time on this issue', 'time_tracking_denied');
}
