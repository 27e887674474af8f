// Gitea's timestamps: RFC 3339 with whole seconds in UTC, Go's zero time for "never".
import { describe, expect, it } from '@jest/globals';
import { formatTime } from '../src/time.js';

describe('formatTime', () => {
  it('writes whole seconds in UTC without milliseconds', () => {
    expect(formatTime({ seconds: 1795440000, nanos: 123_000_000 })).toBe('2026-11-23T13:20:00Z');
  });

  it('writes the Unix epoch for zero seconds and Go\'s zero time for a missing timestamp', () => {
    expect(formatTime({ seconds: 0 })).toBe('1970-01-01T00:00:00Z');
    expect(formatTime(null)).toBe('0001-01-01T00:00:00Z');
  });

  it('agrees with Date for times before 1970, at day and minute edges, and far from now', () => {
    const viaDate = (seconds: number) => `${new Date(Math.floor(seconds) * 1000).toISOString().slice(0, -5)}Z`;
    for (const seconds of [-1, -86_400, -86_401, 59, 60, 3_599, 86_399, 86_400, 1_795_440_000.7, 253_402_300_799, -62_135_596_800]) {
      expect(formatTime({ seconds })).toBe(viaDate(seconds));
    }
    expect(formatTime({ seconds: '1795440000' })).toBe('2026-11-23T13:20:00Z');
  });
});
