import { describe, it, expect } from '@jest/globals';
import { createAccessToken, deleteAccessToken, listAccessTokens } from '../src/domain/access-tokens.js';
import { hashToken } from '../src/domain/tokens.js';
import { memoryIdentity } from './support/memory-store.js';
import { ANONYMOUS, SYSTEM, callerOf, failureOf, givenUser } from './support/fixtures.js';

async function setUp() {
  const identity = memoryIdentity();
  const alice = await givenUser(identity, 'alice');
  const bob = await givenUser(identity, 'bob');
  const root = await givenUser(identity, 'root', { is_admin: true });
  return { identity, alice, bob, root };
}

describe('creating an access token', () => {
  it('shows the token once, keeps only its hash and normalizes the scopes', async () => {
    const { identity, alice } = await setUp();

    const created = await createAccessToken(identity, callerOf(alice), alice.id, 'laptop', ['read:user', 'write:user', 'read:issue']);

    expect(created).toMatchObject({ name: 'laptop', scopes: ['read:issue', 'write:user'], token_last_eight: created.token.slice(-8) });
    const [stored] = await identity.store.accessTokensNamed(alice.id, 'laptop');
    expect(stored).not.toHaveProperty('token');
    expect(stored.token_hash).toBe(hashToken(created.token));
  });

  it('refuses a name the user already gave a token, with Gitea\'s message', async () => {
    const { identity, alice, bob } = await setUp();
    await createAccessToken(identity, callerOf(alice), alice.id, 'laptop', ['all']);

    expect(await failureOf(createAccessToken(identity, callerOf(alice), alice.id, 'laptop', ['read:user']))).toEqual({
      kind: 'already_exists', reason: 'token_name_taken', message: 'access token name has been used already',
    });
    // Names are per user.
    await expect(createAccessToken(identity, callerOf(bob), bob.id, 'laptop', ['all'])).resolves.toMatchObject({ name: 'laptop' });
  });

  it('refuses unknown scopes and a token without any scope', async () => {
    const { identity, alice } = await setUp();

    expect(await failureOf(createAccessToken(identity, callerOf(alice), alice.id, 't1', ['read:user', 'sudo']))).toEqual({
      kind: 'invalid', reason: 'invalid_scope', message: 'invalid access token scope provided: invalid access token scope: sudo',
    });
    expect(await failureOf(createAccessToken(identity, callerOf(alice), alice.id, 't2', []))).toEqual({
      kind: 'invalid', reason: 'invalid_scope', message: 'access token must have a scope',
    });
  });

  it('lets only the user and site administrators manage the user\'s tokens', async () => {
    const { identity, alice, bob, root } = await setUp();

    expect(await failureOf(createAccessToken(identity, callerOf(bob), alice.id, 'x', ['all']))).toMatchObject({ kind: 'forbidden', reason: 'not_self_or_admin' });
    expect(await failureOf(listAccessTokens(identity, ANONYMOUS, alice.id, null))).toMatchObject({ kind: 'forbidden' });
    await expect(createAccessToken(identity, callerOf(root), alice.id, 'by-admin', ['all'])).resolves.toMatchObject({ user_id: alice.id });
  });
});

describe('listing access tokens', () => {
  it('pages the user\'s tokens newest first with the total', async () => {
    const { identity, alice, bob } = await setUp();
    for (const name of ['one', 'two', 'three']) await createAccessToken(identity, SYSTEM, alice.id, name, ['all']);
    await createAccessToken(identity, SYSTEM, bob.id, 'bobs', ['all']);

    const first = await listAccessTokens(identity, callerOf(alice), alice.id, { page: 1, limit: 2 });
    const second = await listAccessTokens(identity, callerOf(alice), alice.id, { page: 2, limit: 2 });

    expect(first.total).toBe(3);
    expect([...first.items, ...second.items].map((t) => t.name)).toEqual(['three', 'two', 'one']);
  });
});

describe('deleting an access token', () => {
  it('deletes by id and announces the revoked token\'s hash', async () => {
    const { identity, alice } = await setUp();
    const created = await createAccessToken(identity, SYSTEM, alice.id, 'laptop', ['all']);

    await deleteAccessToken(identity, callerOf(alice), alice.id, String(created.id));

    expect(await identity.store.accessTokensNamed(alice.id, 'laptop')).toEqual([]);
    expect(identity.store.published.at(-1)).toEqual({ kind: 'credential.revoked', user_id: alice.id, token_hash: hashToken(created.token) });
  });

  it('deletes by name when the path is not a number', async () => {
    const { identity, alice } = await setUp();
    await createAccessToken(identity, SYSTEM, alice.id, 'my-laptop', ['all']);

    await deleteAccessToken(identity, callerOf(alice), alice.id, 'my-laptop');

    expect(await identity.store.accessTokensNamed(alice.id, 'my-laptop')).toEqual([]);
  });

  it('answers not found for another user\'s token id and an unknown name', async () => {
    const { identity, alice, bob } = await setUp();
    const bobs = await createAccessToken(identity, SYSTEM, bob.id, 'bobs', ['all']);

    expect(await failureOf(deleteAccessToken(identity, callerOf(alice), alice.id, String(bobs.id)))).toMatchObject({ kind: 'not_found', reason: 'token_not_found' });
    expect(await failureOf(deleteAccessToken(identity, callerOf(alice), alice.id, 'nope'))).toMatchObject({ kind: 'not_found' });
    expect(await failureOf(deleteAccessToken(identity, callerOf(alice), alice.id, '99999999999999999999'))).toMatchObject({ kind: 'not_found' });
    expect(await identity.store.accessTokensNamed(bob.id, 'bobs')).toHaveLength(1);
  });
});
