import { describe, it, expect } from '@jest/globals';
import { InvalidScopeError, normalizeScopes } from '../src/domain/scopes.js';

describe('access token scope normalization', () => {
  it('keeps a single scope as it is', () => {
    expect(normalizeScopes(['read:user'])).toEqual(['read:user']);
  });

  it('drops a read scope its write scope implies', () => {
    expect(normalizeScopes(['read:repository', 'write:repository'])).toEqual(['write:repository']);
  });

  it('drops duplicates and lists scopes in Gitea\'s order', () => {
    expect(normalizeScopes(['read:user', 'write:issue', 'read:user', 'read:admin'])).toEqual(['read:admin', 'write:issue', 'read:user']);
  });

  it('reads every write scope together as all', () => {
    const everyWrite = ['activitypub', 'admin', 'misc', 'notification', 'organization', 'package', 'issue', 'repository', 'user']
      .map((c) => `write:${c}`);
    expect(normalizeScopes(everyWrite)).toEqual(['all']);
  });

  it('lets all absorb every other category scope', () => {
    expect(normalizeScopes(['read:user', 'all', 'write:issue'])).toEqual(['all']);
  });

  it('keeps public-only beside all', () => {
    expect(normalizeScopes(['all', 'public-only'])).toEqual(['public-only', 'all']);
  });

  it('accepts comma-separated entries and ignores empty ones', () => {
    expect(normalizeScopes(['read:user,write:issue', ''])).toEqual(['write:issue', 'read:user']);
  });

  it('answers nothing when nothing was named', () => {
    expect(normalizeScopes([])).toEqual([]);
    expect(normalizeScopes([''])).toEqual([]);
  });

  it('refuses an unknown scope, naming it as Gitea does', () => {
    expect(() => normalizeScopes(['read:user', 'write:everything'])).toThrow(new InvalidScopeError('write:everything'));
    expect(new InvalidScopeError('x').message).toBe('invalid access token scope: x');
  });

  it('refuses scope names in another case', () => {
    expect(() => normalizeScopes(['Read:User'])).toThrow(InvalidScopeError);
  });
});
