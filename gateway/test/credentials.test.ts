import { describe, expect, it } from '@jest/globals';
import type { Request } from 'express';
import { MalformedCredential, readCredential, readSudo } from '../src/auth/credentials.js';

const req = (headers: Record<string, string>, query: Record<string, string> = {}) => ({ headers, query }) as unknown as Request;

describe('reading credentials', () => {
  it('accepts "token" and "Bearer" authorization headers', () => {
    expect(readCredential(req({ authorization: 'token abc' }))).toEqual({ kind: 'token', token: 'abc' });
    expect(readCredential(req({ authorization: 'Bearer xyz' }))).toEqual({ kind: 'token', token: 'xyz' });
  });

  it('accepts HTTP Basic with a password containing colons', () => {
    const value = Buffer.from('alice:pa:ss').toString('base64');
    expect(readCredential(req({ authorization: `Basic ${value}` }))).toEqual({ kind: 'basic', username: 'alice', password: 'pa:ss' });
  });

  it('accepts the deprecated token and access_token query parameters', () => {
    expect(readCredential(req({}, { token: 't1' }))).toEqual({ kind: 'token', token: 't1' });
    expect(readCredential(req({}, { access_token: 't2' }))).toEqual({ kind: 'token', token: 't2' });
  });

  it('treats a request without credentials as anonymous', () => {
    expect(readCredential(req({}))).toBeUndefined();
  });

  it('rejects an authorization header it cannot read', () => {
    expect(() => readCredential(req({ authorization: 'Digest abc' }))).toThrow(MalformedCredential);
    expect(() => readCredential(req({ authorization: `Basic ${Buffer.from('nocolon').toString('base64')}` }))).toThrow(MalformedCredential);
  });

  it('reads sudo from the query or the Sudo header', () => {
    expect(readSudo(req({ sudo: 'bob' }))).toBe('bob');
    expect(readSudo(req({}, { sudo: 'carol' }))).toBe('carol');
  });
});
