// The durations Gitea writes for tracked time: a stopwatch's `duration` in hours and minutes,
// a timeline entry's body in the two largest units.
import { describe, expect, it } from '@jest/globals';
import { secondsToHours, secondsToTime } from '../src/durations.js';

describe('tracked-time durations', () => {
  it('writes a stopwatch\'s duration in hours and minutes only, singular for one', () => {
    expect(secondsToHours(0)).toBe('');
    expect(secondsToHours(59)).toBe('');
    expect(secondsToHours(60)).toBe('1 minute');
    expect(secondsToHours(3600 + 120)).toBe('1 hour 2 minutes');
    expect(secondsToHours(30 * 3600)).toBe('30 hours');
  });

  it('writes a timeline entry\'s time in its two largest units, as Gitea\'s SecToTime', () => {
    expect(secondsToTime(66)).toBe('1 minute 6 seconds');
    expect(secondsToTime(3600)).toBe('1 hour');
    expect(secondsToTime(52410)).toBe('14 hours 33 minutes');
    expect(secondsToTime(563418)).toBe('6 days 12 hours');
    expect(secondsToTime(1563418)).toBe('2 weeks 4 days');
    expect(secondsToTime(3937125)).toBe('1 month 2 weeks');
    expect(secondsToTime(45677465)).toBe('1 year 5 months');
  });
});
