// Tracked times (Gitea's routers/api/v1/repo/issue_tracked_time.go): time spent on an issue
// or pull request, added by hand or by stopping a stopwatch. Listing shows one's own times,
// or anyone's to those who may write issues (and site admins); adding, resetting and
// deleting follow the time-tracking rule (time-tracking.ts). Each change writes its
// timeline entry and its event in the transaction of the change.
import { forbidden, invalid, notFound, type Caller, type RepositoryScope } from '@anvil/kit';
import type { ChangeContext, Issue } from './issue-store.js';
import { changeContext } from './issues.js';
import { atLeast, requireNotArchived, scopedRepository } from './scope.js';
import { issueInScope, requireTimeTracker, timeTrackingDisabled, isTimeTrackingEnabled, type TimeTrackingDeps } from './time-tracking.js';
import type { UserProfile } from './users.js';

export interface TrackedTime {
  id: number;
  issueId: number;
  repositoryId: number;
  userId: number;
  user?: UserProfile;
  /** Seconds. */
  time: number;
  createdAt: Date;
  deleted: boolean;
  /** The issue it was spent on, when listed. */
  issue?: Issue;
}

export interface TrackedTimeQuery {
  repositoryId?: number;
  issueId?: number;
  userId?: number;
  since?: Date;
  before?: Date;
  offset: number;
  limit: number;
}

export interface TrackedTimeStore {
  /** Times not deleted, oldest first, each with its user and issue. */
  list(query: TrackedTimeQuery): Promise<{ items: TrackedTime[]; total: number }>;
  /** The entry, deleted or not. */
  find(id: number): Promise<TrackedTime | undefined>;
  /** Stores the time with its add_time_manual entry and `added` event. */
  add(context: ChangeContext, issue: Issue, user: UserProfile, seconds: number, created: Date): Promise<TrackedTime>;
  /** Marks the user's times on the issue deleted; the seconds removed, undefined when they had none (nothing written). */
  reset(context: ChangeContext, issue: Issue, userId: number): Promise<number | undefined>;
  /** Marks the entry deleted; false when it already was (nothing written). */
  remove(context: ChangeContext, issue: Issue, time: TrackedTime): Promise<boolean>;
}

export interface TrackedTimeDeps extends TimeTrackingDeps {
  trackedTimes: TrackedTimeStore;
}

/** The longest single entry accepted: a year of seconds (Gitea has no limit; a typo of that size is refused). */
export const MAX_TRACKED_SECONDS = 366 * 24 * 3600;

export interface TrackedTimeFilter {
  /** The issue's index; 0 for the whole repository. */
  index: number;
  /** A login, or '' for anyone the caller may see. */
  user: string;
  since?: Date;
  before?: Date;
  offset: number;
  limit: number;
}

async function userNamed(deps: TrackedTimeDeps, login: string): Promise<UserProfile> {
  const [user] = await deps.issues.usersByLogin([login]);
  if (!user) throw notFound(`user does not exist [name: ${login}]`, 'user_not_found');
  return user;
}

/** An issue's or a repository's times; those who may not write issues see only their own. */
export async function listTrackedTimes(deps: TrackedTimeDeps, scope: RepositoryScope | undefined, caller: Caller, filter: TrackedTimeFilter) {
  const repository = scopedRepository(scope);
  let issueId: number | undefined;
  if (filter.index) {
    // Gitea: an issue's list answers 404 while tracking is off, a repository's 400.
    if (!isTimeTrackingEnabled(deps, repository)) throw notFound('Timetracker is disabled', 'time_tracking_disabled');
    issueId = (await issueInScope(deps, scope, filter.index)).issue.id;
  } else if (!isTimeTrackingEnabled(deps, repository)) {
    throw timeTrackingDisabled();
  }
  let userId = filter.user ? (await userNamed(deps, filter.user)).id : undefined;
  const mayChooseUser = caller.isAdmin || userId === caller.userId || atLeast(repository.permission, 'write');
  if (!mayChooseUser) {
    if (userId !== undefined) throw forbidden('query by user not allowed; not enough rights', 'time_query_denied');
    userId = caller.userId;
  }
  return deps.trackedTimes.list({ repositoryId: repository.id, issueId, userId, since: filter.since, before: filter.before, offset: filter.offset, limit: filter.limit });
}

/** The caller's own times in every repository (GET /user/times). */
export function listUserTrackedTimes(deps: TrackedTimeDeps, caller: Caller, filter: Omit<TrackedTimeFilter, 'index' | 'user'>) {
  return deps.trackedTimes.list({ userId: caller.userId, since: filter.since, before: filter.before, offset: filter.offset, limit: filter.limit });
}

export interface NewTrackedTime {
  seconds: number;
  created?: Date;
  /** On behalf of this user (repository admins and site admins only); '' for the caller. */
  userName: string;
}

export async function addTrackedTime(deps: TrackedTimeDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, input: NewTrackedTime): Promise<TrackedTime> {
  const { repository, issue } = await issueInScope(deps, scope, index);
  requireTimeTracker(deps, repository, issue, caller);
  requireNotArchived(repository);
  if (!Number.isSafeInteger(input.seconds) || input.seconds <= 0) throw invalid('[Time]: must be a positive number of seconds', 'invalid_time');
  if (input.seconds > MAX_TRACKED_SECONDS) throw invalid(`[Time]: at most ${MAX_TRACKED_SECONDS} seconds`, 'invalid_time');
  const context = changeContext(repository, caller);
  let user = context.sender;
  if (input.userName && input.userName.toLowerCase() !== caller.login.toLowerCase()) {
    // Gitea: only repository admins (and site admins) track time for someone else.
    if (!caller.isAdmin && !atLeast(repository.permission, 'admin')) throw forbidden('only repository admins may add time for another user', 'time_user_denied');
    user = await userNamed(deps, input.userName);
  }
  return deps.trackedTimes.add(context, issue, user, input.seconds, input.created ?? new Date());
}

/** Deletes all of the caller's own times on the issue; 404 when they had none. */
export async function resetTrackedTimes(deps: TrackedTimeDeps, scope: RepositoryScope | undefined, caller: Caller, index: number): Promise<void> {
  const { repository, issue } = await issueInScope(deps, scope, index);
  requireTimeTracker(deps, repository, issue, caller);
  requireNotArchived(repository);
  const removed = await deps.trackedTimes.reset(changeContext(repository, caller), issue, caller.userId);
  if (removed === undefined) throw notFound('tracked time does not exist', 'tracked_time_not_found');
}

/** Deletes one entry of the issue: its author, a repository admin or a site admin; a missing one is 404. */
export async function deleteTrackedTime(deps: TrackedTimeDeps, scope: RepositoryScope | undefined, caller: Caller, index: number, id: number): Promise<void> {
  const { repository, issue } = await issueInScope(deps, scope, index);
  requireTimeTracker(deps, repository, issue, caller);
  const time = id > 0 ? await deps.trackedTimes.find(id) : undefined;
  // An entry of another issue is as missing as one that never was.
  if (!time || time.issueId !== issue.id) throw notFound(`tracked time does not exist [id: ${id}]`, 'tracked_time_not_found');
  if (time.deleted) throw notFound('tracked time was already deleted', 'tracked_time_not_found');
  if (time.userId !== caller.userId && !caller.isAdmin && !atLeast(repository.permission, 'admin')) {
    throw forbidden('only the author or an admin may delete a tracked time', 'time_delete_denied');
  }
  requireNotArchived(repository);
  if (!(await deps.trackedTimes.remove(changeContext(repository, caller), issue, time))) throw notFound('tracked time was already deleted', 'tracked_time_not_found');
}
