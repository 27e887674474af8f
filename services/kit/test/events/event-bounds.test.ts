import { describe, expect, it } from '@jest/globals';
import { boundStrings, truncateUtf8 } from '../../src/events/event-bounds.js';

describe('event text bounds', () => {
  it('cuts text at a character boundary, never inside a multi-byte character', () => {
    expect(truncateUtf8('😀😀😀', 9)).toBe('😀😀');
    expect(truncateUtf8('a😀', 4)).toBe('a');
    expect(truncateUtf8('ééé', 5)).toBe('éé');
    expect(truncateUtf8('short', 64)).toBe('short');
  });

  it('bounds every string of a nested payload and counts what it cut, leaving the rest untouched', () => {
    const when = new Date(0);
    const payload = { a: 'x'.repeat(10), list: [{ b: 'y'.repeat(3) }, 'z'.repeat(20)], n: 7, when, bytes: new Uint8Array([1, 2]) };
    const { value, cut } = boundStrings(payload, 5);
    expect(cut).toBe(2);
    expect(value).toEqual({ a: 'xxxxx', list: [{ b: 'yyy' }, 'zzzzz'], n: 7, when, bytes: new Uint8Array([1, 2]) });
    expect(payload.a).toHaveLength(10); // the original is not changed
  });

  it('walks a deeply nested payload without overflowing the stack', () => {
    let deep: Record<string, unknown> = { s: 'w'.repeat(10) };
    for (let i = 0; i < 100_000; i++) deep = { next: deep };
    expect(boundStrings(deep, 3).cut).toBe(1);
  });
});
