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

const SECONDS_PER_DAY = 86_400;
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));
// "YYYY-MM-DDT" per day since 1970: a page's timestamps fall on a few days, and building the
// date through Date.toISOString() per timestamp was a visible share of a list's CPU.
const DAY_PREFIXES_KEPT = 4096;
const dayPrefixes = new Map<number, string>();

function dayPrefix(day: number): string {
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    const iso = new Date(day * SECONDS_PER_DAY * 1000).toISOString();
    prefix = iso.slice(0, iso.indexOf('T') + 1);
    if (dayPrefixes.size >= DAY_PREFIXES_KEPT) dayPrefixes.clear();
    dayPrefixes.set(day, prefix);
  }
  return prefix;
}

/** RFC 3339 with whole seconds, UTC (`2026-11-23T09:32:50Z`), as Go writes Gitea's time.Time. */
export function formatTime(ts: { seconds: number | string; nanos?: number | null } | null | undefined): string {
  // Go's zero time.Time, which Gitea emits for "never" in non-pointer fields.
  if (!ts) return '0001-01-01T00:00:00Z';
  const seconds = Math.floor(Number(ts.seconds));
  // Out of Date's range (or not a number): let Date throw its RangeError, as it always did.
  if (!Number.isFinite(seconds) || Math.abs(seconds) > 8.64e12) return `${new Date(seconds * 1000).toISOString().slice(0, -5)}Z`;
  const day = Math.floor(seconds / SECONDS_PER_DAY);
  const inDay = seconds - day * SECONDS_PER_DAY;
  const minutes = Math.floor(inDay / 60);
  return `${dayPrefix(day)}${TWO_DIGITS[Math.floor(minutes / 60)]}:${TWO_DIGITS[minutes % 60]}:${TWO_DIGITS[inDay % 60]}Z`;
}
