// Object ids as they arrive in ref updates: a full id, or git's all-zeros null id that
// marks a ref created (old value) or deleted (new value).
import { describe, expect, it } from '@jest/globals';
import { isObjectId, isZeroId } from '@anvil/kit';

describe('object ids', () => {
  it('a full SHA-1 or SHA-256 id in lower-case hex is an object id; abbreviations and upper case are not', () => {
    expect(isObjectId('a'.repeat(40))).toBe(true);
    expect(isObjectId('b'.repeat(64))).toBe(true);
    expect(isObjectId('a'.repeat(39))).toBe(false);
    expect(isObjectId('a'.repeat(50))).toBe(false);
    expect(isObjectId('A'.repeat(40))).toBe(false);
  });

  it('the null id is all zeros, of either length; an id with any other digit is not', () => {
    expect(isZeroId('0'.repeat(40))).toBe(true);
    expect(isZeroId('0'.repeat(64))).toBe(true);
    expect(isZeroId(`${'0'.repeat(39)}1`)).toBe(false);
    expect(isZeroId('')).toBe(false);
  });
});
