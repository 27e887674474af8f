import { describe, expect, it } from '@jest/globals';
import { DomainError } from '@anvil/kit';
import { oauth2FailureOf, InvalidParameter, singleParam } from '../src/oauth/errors.js';

describe('OAuth2 error answers', () => {
  it('carry the RFC error code the service gave as its reason', () => {
    expect(oauth2FailureOf(new DomainError('invalid', 'code used', 'invalid_grant'))).toEqual({ error: 'invalid_grant', error_description: 'code used' });
    expect(oauth2FailureOf(new DomainError('unauthenticated', 'bad secret', 'invalid_client'))).toEqual({ error: 'invalid_client', error_description: 'bad secret' });
  });

  it('read other refusals as invalid_request, and leave bugs to the error handler', () => {
    expect(oauth2FailureOf(new DomainError('not_found', 'user does not exist', 'user_not_found'))?.error).toBe('invalid_request');
    expect(oauth2FailureOf(new DomainError('unavailable', 'down', 'unavailable'))?.error).toBe('temporarily_unavailable');
    expect(oauth2FailureOf(new Error('boom'))).toBeUndefined();
  });
});

describe('OAuth2 request parameters', () => {
  it('are taken once, as strings', () => {
    expect(singleParam({ code: 'abc' }, 'code')).toBe('abc');
    expect(singleParam({}, 'code')).toBe('');
    expect(() => singleParam({ code: ['a', 'b'] }, 'code')).toThrow(InvalidParameter);
    expect(() => singleParam({ code: { nested: 1 } }, 'code')).toThrow(InvalidParameter);
    expect(() => singleParam({ code: 'a\u0000b' }, 'code')).toThrow(InvalidParameter);
    expect(() => singleParam({ code: 'c'.repeat(4097) }, 'code')).toThrow(InvalidParameter);
  });
});
