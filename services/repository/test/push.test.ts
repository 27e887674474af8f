import { describe, expect, it } from '@jest/globals';
import { defaultBranchAfterPush, refUpdates } from '../src/domain/push.js';

const Z = '0'.repeat(40);
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);

describe('what a push changed', () => {
  it('lists created, updated and deleted refs', () => {
    const before = new Map([['refs/heads/main', A], ['refs/tags/old', A]]);
    const after = new Map([['refs/heads/main', B], ['refs/heads/new', A]]);
    expect(refUpdates(before, after, Z)).toEqual([
      { ref: 'refs/heads/main', before: A, after: B },
      { ref: 'refs/heads/new', before: Z, after: A },
      { ref: 'refs/tags/old', before: A, after: Z },
    ]);
  });

  it('keeps the default branch when it exists, else takes the first pushed branch', () => {
    expect(defaultBranchAfterPush('main', new Map([['refs/heads/main', A], ['refs/heads/dev', B]]))).toBe('main');
    expect(defaultBranchAfterPush('main', new Map([['refs/heads/dev', B], ['refs/tags/v1', A]]))).toBe('dev');
    expect(defaultBranchAfterPush('main', new Map([['refs/tags/v1', A]]))).toBe('main');
  });
});
