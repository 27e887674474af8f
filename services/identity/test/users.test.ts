import { describe, it, expect } from '@jest/globals';
import { getUser, getUsers, searchUsers, type SearchUsersInput } from '../src/domain/users.js';
import { memoryIdentity } from './support/memory-store.js';
import { ANONYMOUS, SYSTEM, callerOf, failureOf, givenUser } from './support/fixtures.js';

const search = (overrides: Partial<SearchUsersInput> = {}): SearchUsersInput =>
  ({ q: '', uid: 0, page: null, include_all: false, login_name: '', source_id: 0, sort: '', ...overrides });

async function setUp() {
  const identity = memoryIdentity();
  const pub = await givenUser(identity, 'pub', { full_name: 'Public Person' });
  const lim = await givenUser(identity, 'lim', {}, { visibility: 'limited' });
  const priv = await givenUser(identity, 'priv', {}, { visibility: 'private' });
  const off = await givenUser(identity, 'off', {}, { active: false });
  const root = await givenUser(identity, 'root', { is_admin: true });
  return { identity, pub, lim, priv, off, root };
}

const logins = (page: { items: Array<{ login: string }> }) => page.items.map((u) => u.login);

describe('searching users', () => {
  it('shows anonymous callers public users only', async () => {
    const { identity } = await setUp();

    expect(logins(await searchUsers(identity, ANONYMOUS, search()))).toEqual(['pub', 'root']);
  });

  it('shows signed-in users public and limited users, and themselves when private', async () => {
    const { identity, priv } = await setUp();

    expect(logins(await searchUsers(identity, callerOf(priv), search()))).toEqual(['pub', 'lim', 'priv', 'root']);
  });

  it('shows restricted users only themselves', async () => {
    const { identity } = await setUp();
    const r = await givenUser(identity, 'restricted-user', { restricted: true });

    expect(logins(await searchUsers(identity, callerOf(r), search()))).toEqual(['restricted-user']);
  });

  it('shows site administrators every active user, and with include_all inactive ones too', async () => {
    const { identity, root } = await setUp();

    expect(logins(await searchUsers(identity, callerOf(root), search()))).toEqual(['pub', 'lim', 'priv', 'root']);
    expect(logins(await searchUsers(identity, callerOf(root), search({ include_all: true })))).toEqual(['pub', 'lim', 'priv', 'off', 'root']);
  });

  it('keeps the admin listing for site administrators', async () => {
    const { identity, pub } = await setUp();

    expect(await failureOf(searchUsers(identity, callerOf(pub), search({ include_all: true })))).toMatchObject({ kind: 'forbidden' });
  });

  it('narrows a public-only token to public users', async () => {
    const { identity, root } = await setUp();

    expect(logins(await searchUsers(identity, callerOf(root, ['public-only', 'all']), search()))).toEqual(['pub', 'root']);
  });

  it('matches the keyword in the login or full name without regard to case', async () => {
    const { identity } = await setUp();

    expect(logins(await searchUsers(identity, SYSTEM, search({ q: 'PERSON' })))).toEqual(['pub']);
    expect(logins(await searchUsers(identity, SYSTEM, search({ q: ' IM ' })))).toEqual(['lim']);
  });

  it('matches e-mail addresses only where the owner does not keep them private', async () => {
    const { identity, pub } = await setUp();
    const hidden = await givenUser(identity, 'hidden', { email: 'secret@corp.example' });
    await identity.store.transaction((tx) => tx.updateUser(hidden.id, { keep_email_private: true }));

    expect(logins(await searchUsers(identity, callerOf(pub), search({ q: 'corp.example' })))).toEqual([]);
    expect(logins(await searchUsers(identity, callerOf({ ...hidden, is_admin: false }), search({ q: 'corp.example' })))).toEqual(['hidden']);
    expect(logins(await searchUsers(identity, SYSTEM, search({ q: 'corp.example' })))).toEqual(['hidden']);
  });

  it('pages in a stable id order with the total, or alphabetically when asked', async () => {
    const { identity } = await setUp();

    const first = await searchUsers(identity, SYSTEM, search({ page: { page: 1, limit: 2 } }));
    const second = await searchUsers(identity, SYSTEM, search({ page: { page: 2, limit: 2 } }));
    expect([logins(first), logins(second), first.total]).toEqual([['pub', 'lim'], ['priv', 'root'], 4]);
    expect(logins(await searchUsers(identity, SYSTEM, search({ sort: 'alphabetically' })))).toEqual(['lim', 'priv', 'pub', 'root']);
  });

  it('finds one user by uid', async () => {
    const { identity, lim } = await setUp();

    expect(logins(await searchUsers(identity, SYSTEM, search({ uid: lim.id })))).toEqual(['lim']);
  });
});

describe('looking users up', () => {
  it('finds a user by id or by login in any case', async () => {
    const { identity, pub } = await setUp();

    expect((await getUser(identity, { id: pub.id })).login).toBe('pub');
    expect((await getUser(identity, { login: 'PUB' })).id).toBe(pub.id);
    expect(await failureOf(getUser(identity, { login: 'nobody' }))).toEqual({
      kind: 'not_found', reason: 'user_not_found', message: 'user does not exist [uid: 0, name: nobody]',
    });
  });

  it('loads a batch by ids and logins at once, skipping unknown keys', async () => {
    const { identity, pub, priv } = await setUp();

    const users = await getUsers(identity, [pub.id, 999, pub.id], ['PRIV', 'nobody']);

    expect(users.map((u) => u.id)).toEqual([pub.id, priv.id]);
    expect(await getUsers(identity, [], [])).toEqual([]);
  });
});
