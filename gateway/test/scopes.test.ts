import { describe, expect, it } from '@jest/globals';
import { grantsScopes, levelOfMethod, requiredScopes } from '../src/auth/scopes.js';

describe('token scopes', () => {
  it('reads need read scope and writes need write scope, by HTTP method', () => {
    expect(requiredScopes(levelOfMethod('GET'), ['user'])).toEqual(['read:user']);
    expect(requiredScopes(levelOfMethod('DELETE'), ['user'])).toEqual(['write:user']);
  });

  it('lets a write scope serve reads of the same category', () => {
    expect(grantsScopes(['write:user'], ['read:user'])).toBe(true);
  });

  it('does not let a read scope serve writes', () => {
    expect(grantsScopes(['read:user'], ['write:user'])).toBe(false);
  });

  it('lets "all" serve anything', () => {
    expect(grantsScopes(['all'], ['write:admin', 'write:repository'])).toBe(true);
  });

  it('needs every category a route belongs to', () => {
    expect(grantsScopes(['write:repository'], ['write:organization', 'write:repository'])).toBe(false);
    expect(grantsScopes(['write:repository', 'write:organization'], ['write:organization', 'write:repository'])).toBe(true);
  });

  it('does not let a scope of one category serve another', () => {
    expect(grantsScopes(['write:issue'], ['read:user'])).toBe(false);
  });
});
