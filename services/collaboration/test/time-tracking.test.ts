// Gitea's CanUseTimetracker as a pure rule over the repository's scope, the site's switch,
// the caller's permission and their part in the issue.
import { describe, expect, it } from '@jest/globals';
import type { Caller, RepositoryScope } from '@anvil/kit';
import type { Issue } from '../src/domain/issue-store.js';
import { scopedRepository } from '../src/domain/scope.js';
import { canUseTimeTracker, isTimeTrackingEnabled, type TimeTrackingDeps } from '../src/domain/time-tracking.js';

const caller: Caller = { userId: 9, login: 'eve', isAdmin: false, restricted: false, scopes: ['all'] };
const issue = (posterId: number, assigneeIds: number[] = []) => ({ posterId, assignees: assigneeIds.map((id) => ({ id, login: `u${id}` })) } as unknown as Issue);
const deps = (timeTrackingEnabled = true) => ({ timeTrackingEnabled } as TimeTrackingDeps);

function repository(permission: string, tracker?: { enable_time_tracker: boolean; allow_only_contributors_to_track_time: boolean }) {
  return scopedRepository({
    permission,
    repository: { id: 1, owner_id: 7, owner_login: 'ada', name: 'r', private: false, archived: false, internal_tracker: tracker ? { ...tracker, enable_issue_dependencies: true } : null },
    owner: null,
  } as unknown as RepositoryScope);
}

describe('who may track time', () => {
  it('is nobody while the site or the repository has time tracking off', () => {
    expect(canUseTimeTracker(deps(false), repository('owner'), issue(7), caller)).toBe(false);
    expect(canUseTimeTracker(deps(), repository('owner', { enable_time_tracker: false, allow_only_contributors_to_track_time: false }), issue(7), caller)).toBe(false);
  });

  it('with only contributors tracking: writers, the poster and assignees, not other readers', () => {
    const onlyContributors = { enable_time_tracker: true, allow_only_contributors_to_track_time: true };
    expect(canUseTimeTracker(deps(), repository('write', onlyContributors), issue(7), caller)).toBe(true);
    expect(canUseTimeTracker(deps(), repository('read', onlyContributors), issue(9), caller)).toBe(true);
    expect(canUseTimeTracker(deps(), repository('read', onlyContributors), issue(7, [9]), caller)).toBe(true);
    expect(canUseTimeTracker(deps(), repository('read', onlyContributors), issue(7, [8]), caller)).toBe(false);
  });

  it('is every reader when anyone may track', () => {
    expect(canUseTimeTracker(deps(), repository('read', { enable_time_tracker: true, allow_only_contributors_to_track_time: false }), issue(7), caller)).toBe(true);
  });

  it('takes Gitea\'s defaults (on, only contributors) for a repository that says nothing', () => {
    expect(isTimeTrackingEnabled(deps(), repository('read'))).toBe(true);
    expect(canUseTimeTracker(deps(), repository('read'), issue(7), caller)).toBe(false);
  });
});
