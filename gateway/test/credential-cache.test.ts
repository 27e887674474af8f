import { describe, expect, it } from '@jest/globals';
import { CredentialCache, credentialKey, type Authenticated } from '../src/auth/credential-cache.js';

const reply = (id: number): Authenticated => ({ user: { id, login: `u${id}` } as Authenticated['user'], scopes: ['all'], method: 'token', token_hash: 'h' });

describe('credential cache', () => {
  it('asks identity once for concurrent requests with the same token', async () => {
    const cache = new CredentialCache(10_000);
    let calls = 0;
    const load = async () => {
      calls++;
      await new Promise((r) => setTimeout(r, 10));
      return reply(1);
    };
    const key = credentialKey({ kind: 'token', token: 'abc' });
    await Promise.all([cache.get(key, load), cache.get(key, load), cache.get(key, load)]);
    await cache.get(key, load);
    expect(calls).toBe(1);
  });

  it('forgets every credential of a user when that user is dropped', async () => {
    const cache = new CredentialCache(10_000);
    let calls = 0;
    const load = async () => (calls++, reply(7));
    const key = credentialKey({ kind: 'token', token: 'abc' });
    await cache.get(key, load);
    cache.dropUser(7);
    await cache.get(key, load);
    expect(calls).toBe(2);
  });

  it('does not keep a lookup that was in flight when the user was dropped', async () => {
    const cache = new CredentialCache(10_000);
    let release!: () => void;
    let calls = 0;
    const slow = () => (calls++, new Promise<Authenticated>((r) => (release = () => r(reply(3)))));
    const key = credentialKey({ kind: 'token', token: 'revoked' });
    const pending = cache.get(key, slow);
    cache.dropUser(3);
    release();
    await pending;
    await cache.get(key, async () => (calls++, reply(3)));
    expect(calls).toBe(2);
  });

  it('expires entries after the TTL', async () => {
    const cache = new CredentialCache(5);
    let calls = 0;
    const key = credentialKey({ kind: 'basic', username: 'a', password: 'b' });
    await cache.get(key, async () => (calls++, reply(2)));
    await new Promise((r) => setTimeout(r, 10));
    await cache.get(key, async () => (calls++, reply(2)));
    expect(calls).toBe(2);
  });

  it('never propagates a failed lookup to later callers', async () => {
    const cache = new CredentialCache(10_000);
    const key = credentialKey({ kind: 'token', token: 'bad' });
    await expect(cache.get(key, async () => { throw new Error('wrong token'); })).rejects.toThrow('wrong token');
    await expect(cache.get(key, async () => reply(4))).resolves.toMatchObject({ user: { id: 4 } });
  });
});
