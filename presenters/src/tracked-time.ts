// Tracked times and stopwatches as Gitea's JSON (services/convert/issue.go ToTrackedTime,
// ToStopWatches).
import type { Caller } from '@anvil/kit';
import type { collaboration } from '@anvil/proto';
import { secondsToHours } from './durations.js';
import { presentIssue, type IssueRepository } from './issue.js';
import { formatTime } from './time.js';

/** Gitea's ToTrackedTime; `repo` is the issue's repository (the issue is left out without it). */
export function presentTrackedTime(t: collaboration.TrackedTime, repo: IssueRepository | undefined, caller: Caller, rootUrl: string) {
  return {
    id: t.id,
    created: formatTime(t.created_at),
    time: t.time,
    user_id: t.user_id,
    // Gitea's ghost user for a deleted account.
    user_name: t.user?.login ?? 'Ghost',
    issue_id: t.issue_id,
    ...(t.issue && repo ? { issue: presentIssue(t.issue, repo, caller, rootUrl) } : {}),
  };
}

/** Gitea's api.StopWatch. */
export function presentStopwatch(s: collaboration.Stopwatch, repo: IssueRepository) {
  return {
    created: formatTime(s.created_at),
    seconds: s.seconds,
    duration: secondsToHours(s.seconds),
    issue_index: s.issue_index,
    issue_title: s.issue_title,
    repo_owner_name: repo.owner,
    repo_name: repo.name,
  };
}
