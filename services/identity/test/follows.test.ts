// The following rules over the in-memory store: who may follow on whose behalf, what is no
// change (as in Gitea), what is announced, and whom a caller's lists may show. The SQL of
// the lists and the counts under concurrency are in follows.int.test.ts.
import { describe, it, expect } from '@jest/globals';
import { deleteUser } from '../src/domain/accounts.js';
import { followUser, followViewerOf, isFollowing, unfollowUser } from '../src/domain/follows.js';
import { memoryIdentity } from './support/memory-store.js';
import { ANONYMOUS, SYSTEM, callerOf, failureOf, givenUser } from './support/fixtures.js';

async function setUp() {
  const identity = memoryIdentity();
  const alice = await givenUser(identity, 'alice');
  const bob = await givenUser(identity, 'bob');
  return { identity, alice, bob, asAlice: callerOf(alice) };
}

describe('following', () => {
  it('announces both users as updated, with their new counts', async () => {
    const { identity, alice, bob, asAlice } = await setUp();
    const before = identity.store.published.length;

    await followUser(identity, asAlice, { user_id: alice.id, follow_id: bob.id });

    expect(identity.store.published.slice(before)).toMatchObject([
      { kind: 'user.updated', user: { id: alice.id, num_following: 1, num_followers: 0 } },
      { kind: 'user.updated', user: { id: bob.id, num_following: 0, num_followers: 1 } },
    ]);
    expect(await isFollowing(identity, { user_id: alice.id, follow_id: bob.id })).toBe(true);
  });

  it('treats following oneself, following again and unfollowing someone not followed as no change', async () => {
    const { identity, alice, bob, asAlice } = await setUp();
    await followUser(identity, asAlice, { user_id: alice.id, follow_id: bob.id });
    const before = identity.store.published.length;

    await followUser(identity, asAlice, { user_id: alice.id, follow_id: bob.id });
    await followUser(identity, asAlice, { user_id: alice.id, follow_id: alice.id });
    await unfollowUser(identity, callerOf(bob), { user_id: bob.id, follow_id: alice.id });

    expect(identity.store.published.length).toBe(before);
    expect(await isFollowing(identity, { user_id: alice.id, follow_id: alice.id })).toBe(false);
  });

  it('refuses anonymous callers and following on another\'s behalf; an unknown account is not found', async () => {
    const { identity, alice, bob, asAlice } = await setUp();
    expect(await failureOf(followUser(identity, ANONYMOUS, { user_id: alice.id, follow_id: bob.id }))).toMatchObject({ kind: 'unauthenticated' });
    expect(await failureOf(followUser(identity, callerOf(bob), { user_id: alice.id, follow_id: bob.id }))).toMatchObject({ kind: 'forbidden' });
    expect(await failureOf(followUser(identity, asAlice, { user_id: alice.id, follow_id: 4242 }))).toMatchObject({ kind: 'not_found', reason: 'user_not_found' });
  });

  it('announces those on the other side of a deleted user\'s follows', async () => {
    const { identity, alice, bob, asAlice } = await setUp();
    await followUser(identity, asAlice, { user_id: alice.id, follow_id: bob.id });
    const before = identity.store.published.length;

    await deleteUser(identity, SYSTEM, 'alice');

    expect(identity.store.published.slice(before)).toMatchObject([
      { kind: 'user.updated', user: { id: bob.id, num_followers: 0 } },
      { kind: 'user.deleted', user_id: alice.id },
      { kind: 'credential.revoked', user_id: alice.id },
    ]);
  });
});

describe('whom a caller\'s lists of follows show', () => {
  it('follows Gitea\'s isUserVisibleToViewerCond', async () => {
    const { alice } = await setUp();
    const asAlice = callerOf(alice);
    expect(followViewerOf(ANONYMOUS)).toEqual({ scope: 'public' });
    expect(followViewerOf({ ...asAlice, restricted: true })).toEqual({ scope: 'public' });
    expect(followViewerOf({ ...asAlice, scopes: ['public-only', 'read:user'] })).toEqual({ scope: 'public' });
    expect(followViewerOf({ ...asAlice, isAdmin: true })).toEqual({ scope: 'all' });
    expect(followViewerOf(asAlice)).toEqual({ scope: 'signed', viewer_id: alice.id });
  });
});
