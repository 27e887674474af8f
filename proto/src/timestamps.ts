// google.protobuf.Timestamp ↔ Date, and the Timestamp as Gitea's JSON writes a time.
export interface TimestampValue {
  seconds: number;
  nanos: number;
}

/** A Date as a Timestamp message (whole milliseconds; nanos stay positive for dates before 1970). */
export function timestamp(date: Date): TimestampValue {
  const ms = date.getTime();
  const seconds = Math.floor(ms / 1000);
  return { seconds, nanos: (ms - seconds * 1000) * 1_000_000 };
}

/** A Timestamp message as a Date; undefined when unset. */
export function dateOf(ts: { seconds?: number | string | null; nanos?: number | null } | null | undefined): Date | undefined {
  if (!ts) return undefined;
  return new Date(Number(ts.seconds ?? 0) * 1000 + Math.floor((ts.nanos ?? 0) / 1_000_000));
}

/** RFC 3339 with whole seconds, UTC (`2026-11-23T09:32:50Z`), as Go writes Gitea's time.Time. */
export function formatTime(ts: { seconds: number | string; nanos?: number | null } | null | undefined): string {
  // Go's zero time.Time, which Gitea emits for "never" in non-pointer fields.
  if (!ts) return '0001-01-01T00:00:00Z';
  // toISOString() always ends in `.sssZ`; slicing beats a regex on every timestamp of every reply.
  return `${new Date(Number(ts.seconds) * 1000).toISOString().slice(0, -5)}Z`;
}
