// Secrets kept for later use are stored encrypted: what is stored reveals nothing, opens with
// the same key only, and a tampered value fails instead of opening to something else.
import { describe, expect, it } from '@jest/globals';
import { secretBox } from '../../src/crypto/secret-box.js';

const KEY = 'a-secret-key-of-the-deployment-0123456789';

describe('secret box', () => {
  it('stores a secret so that it does not show, and opens it again', () => {
    const box = secretBox(KEY, 'webhook secrets');
    const stored = box.seal('topsecret');
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain('topsecret');
    expect(box.open(stored)).toBe('topsecret');
    // A fresh IV each time: equal secrets do not look equal at rest.
    expect(box.seal('topsecret')).not.toBe(stored);
  });

  it('keeps "no secret" empty, and reads a value stored before encryption as it is', () => {
    const box = secretBox(KEY, 'webhook secrets');
    expect(box.seal('')).toBe('');
    expect(box.open('')).toBe('');
    expect(box.open('legacy-clear-value')).toBe('legacy-clear-value');
    expect(box.isSealed('legacy-clear-value')).toBe(false);
  });

  it('refuses to open with another key or for another purpose, or a tampered value', () => {
    const stored = secretBox(KEY, 'webhook secrets').seal('topsecret');
    expect(() => secretBox('another-key-entirely-0123456789abcdef', 'webhook secrets').open(stored)).toThrow();
    expect(() => secretBox(KEY, 'something else').open(stored)).toThrow();
    const raw = Buffer.from(stored.slice('enc:v1:'.length), 'base64url');
    raw[raw.length - 1] ^= 1;
    expect(() => secretBox(KEY, 'webhook secrets').open(`enc:v1:${raw.toString('base64url')}`)).toThrow();
  });
});
