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
});
