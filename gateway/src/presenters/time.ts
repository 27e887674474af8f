// Go's encoding/json writes time.Time as RFC 3339; Gitea's timestamps have whole seconds.
interface Timestamp {
  seconds: number;
  nanos?: number;
}

/** RFC 3339 with whole seconds, UTC (`2026-11-23T09:32:50Z`). */
export function formatTime(ts: Timestamp | null | undefined): string {
  // Go's zero time.Time, which Gitea emits for "never" in non-pointer fields.
  if (!ts) return '0001-01-01T00:00:00Z';
  // toISOString() always ends in `.sssZ`; slicing beats a regex on every timestamp of every reply.
  const iso = new Date(ts.seconds * 1000).toISOString();
  return `${iso.slice(0, -5)}Z`;
}
