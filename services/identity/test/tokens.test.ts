import { describe, it, expect } from '@jest/globals';
import { createHash } from 'node:crypto';
import { emailProblem } from '../src/domain/email.js';
import { hashToken, looksLikeToken, newToken, parseGoInt } from '../src/domain/tokens.js';

describe('token values', () => {
  it('are 40 lower-case hex digits, stored as their sha256 with the last eight kept', () => {
    const { token, token_hash, token_last_eight } = newToken();
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect(token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(token_last_eight).toBe(token.slice(32));
    expect(hashToken(token)).toBe(token_hash);
  });

  it('differ every time', () => {
    expect(newToken().token).not.toBe(newToken().token);
  });

  it('are told apart from passwords by their shape', () => {
    expect(looksLikeToken('0123456789abcdef0123456789abcdef01234567')).toBe(true);
    expect(looksLikeToken('0123456789ABCDEF0123456789ABCDEF01234567')).toBe(false);
    expect(looksLikeToken('correct horse battery staple')).toBe(false);
  });
});

describe('reading a token path segment as Go\'s ParseInt(s, 0, 64) does', () => {
  it.each([
    ['42', 42n], ['+42', 42n], ['-7', -7n], ['0', 0n], ['0x1f', 31n], ['0X1F', 31n], ['0o17', 15n], ['017', 15n],
    ['0b101', 5n], ['1_000', 1000n], ['0x_1f', 31n], ['0_7', 7n],
  ])('reads %s as %s', (s, value) => {
    expect(parseGoInt(s)).toBe(value);
  });

  it.each(['', 'abc', 'my-token', '12abc', '1__0', '_1', '1_', '08', '0x', '0b2', '1.5', ' 1'])('does not read %j as a number', (s) => {
    expect(parseGoInt(s)).toBeUndefined();
  });

  it('clamps a number beyond int64 as Go returns it', () => {
    expect(parseGoInt('99999999999999999999')).toBe((1n << 63n) - 1n);
    expect(parseGoInt('-99999999999999999999')).toBe(-(1n << 63n));
  });
});

describe('e-mail address validation', () => {
  it.each(['alice@example.com', 'a.b+tag@sub.example.org', "o'hara@example.ie", 'x@localhost'])('accepts %s', (email) => {
    expect(emailProblem(email)).toBeUndefined();
  });

  it.each([
    ['', 'invalid'], ['-alice@example.com', 'invalid'], ['.alice@example.com', 'invalid'], ['a..b@example.com', 'invalid'],
    ['@example.com', 'invalid'], ['alice', 'unsupported_character'], ['alice@exa mple.com', 'unsupported_character'],
    ['ali ce@example.com', 'unsupported_character'], ['alice@-example.com', 'unsupported_character'], ['andré@example.com', 'unsupported_character'],
  ])('refuses %j as %s', (email, problem) => {
    expect(emailProblem(email)).toBe(problem);
  });
});
