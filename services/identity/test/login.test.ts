import { describe, it, expect } from '@jest/globals';
import { DomainError } from '@anvil/kit';
import { assertUsableLogin, isValidLogin } from '../src/domain/login.js';

function refusal(login: string): { message: string; reason: string; kind: string } | undefined {
  try {
    assertUsableLogin(login);
    return undefined;
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { message: err.message, reason: err.reason, kind: err.kind };
  }
}

describe('login validation', () => {
  it.each(['alice', 'Alice', 'a', 'a1', '1a', 'alice-bob', 'alice_bob', 'alice.bob', 'a-b_c.d', 'admin'])('accepts %s', (login) => {
    expect(refusal(login)).toBeUndefined();
  });

  it.each([
    ['-alice', 'a leading dash'],
    ['_alice', 'a leading underscore'],
    ['.alice', 'a leading dot'],
    ['alice-', 'a trailing dash'],
    ['alice.', 'a trailing dot'],
    ['alice__bob', 'consecutive underscores'],
    ['alice.-bob', 'a dot followed by a dash'],
    ['alice bob', 'a space'],
    ['alicé', 'a non-ASCII letter'],
    ['alice/bob', 'a slash'],
    ['', 'nothing'],
    ['-', 'a lone dash'],
    ['.', 'a lone dot'],
    ['..', 'two dots'],
  ])('refuses %j (%s) with Gitea\'s message', (login) => {
    expect(isValidLogin(login)).toBe(false);
    expect(refusal(login)).toEqual({
      kind: 'invalid',
      reason: 'name_chars_not_allowed',
      message: `name is invalid [${login}]: must be valid alpha or numeric or dash(-_) or dot characters`,
    });
  });

  it.each(['api', 'assets', 'user', 'explore', 'login', 'ghost', 'API', 'User', 'favicon.ico', 'swagger.v1.json'])(
    'refuses the reserved name %s whatever its case',
    (login) => {
      expect(refusal(login)).toEqual({ kind: 'invalid', reason: 'name_reserved', message: `name is reserved [name: ${login.toLowerCase()}]` });
    },
  );

  it.each([['alice.keys', '*.keys'], ['bob.gpg', '*.gpg'], ['feed.rss', '*.rss'], ['feed.atom', '*.atom'], ['me.PNG', '*.png']])(
    'refuses %s, which ends like a route the profile page serves',
    (login, pattern) => {
      expect(refusal(login)).toEqual({ kind: 'invalid', reason: 'name_pattern_not_allowed', message: `name pattern is not allowed [pattern: ${pattern}]` });
    },
  );
});
