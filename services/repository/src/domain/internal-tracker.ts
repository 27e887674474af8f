// The built-in issue tracker's settings (Gitea's IssuesConfig), named as Gitea's
// InternalTracker JSON names them from the table to the JSON. They travel in the repository
// message, so collaboration reads them from the signed repository scope of each call.

export interface InternalTracker {
  enable_time_tracker: boolean;
  allow_only_contributors_to_track_time: boolean;
  enable_issue_dependencies: boolean;
}

/** What Gitea gives a new repository's issues unit ([service] DEFAULT_ENABLE_TIMETRACKING & co. at their defaults). */
export const DEFAULT_INTERNAL_TRACKER: Readonly<InternalTracker> = Object.freeze({
  enable_time_tracker: true,
  allow_only_contributors_to_track_time: true,
  enable_issue_dependencies: true,
});

/** A new repository's settings from `[service] DEFAULT_ENABLE_TIMETRACKING` and its two siblings. */
export function newRepositoryTracker(service: {
  DEFAULT_ENABLE_TIMETRACKING: boolean; DEFAULT_ALLOW_ONLY_CONTRIBUTORS_TO_TRACK_TIME: boolean; DEFAULT_ENABLE_DEPENDENCIES: boolean;
}): InternalTracker {
  return {
    enable_time_tracker: service.DEFAULT_ENABLE_TIMETRACKING,
    allow_only_contributors_to_track_time: service.DEFAULT_ALLOW_ONLY_CONTRIBUTORS_TO_TRACK_TIME,
    enable_issue_dependencies: service.DEFAULT_ENABLE_DEPENDENCIES,
  };
}

/** The settings a stored value holds; rows older than the column hold `{}` and take the defaults. */
export function internalTrackerOf(stored: unknown): InternalTracker {
  const record = stored && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
  const flag = (key: keyof InternalTracker) => (typeof record[key] === 'boolean' ? (record[key] as boolean) : DEFAULT_INTERNAL_TRACKER[key]);
  return {
    enable_time_tracker: flag('enable_time_tracker'),
    allow_only_contributors_to_track_time: flag('allow_only_contributors_to_track_time'),
    enable_issue_dependencies: flag('enable_issue_dependencies'),
  };
}
