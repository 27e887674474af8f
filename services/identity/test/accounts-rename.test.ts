// Renaming an account (POST /admin/users/{username}/rename): Gitea's name rules, a taken
// name refused, the change announced as identity.user.updated.
import { describe, it, expect } from '@jest/globals';
import { renameUser } from '../src/domain/accounts.js';
import { memoryIdentity } from './support/memory-store.js';
import { SYSTEM, callerOf, failureOf, givenUser } from './support/fixtures.js';

describe('renaming a user', () => {
  it('gives the account the new login and announces it, revoking cached credentials', async () => {
    const identity = memoryIdentity();
    const alice = await givenUser(identity, 'alice');

    const renamed = await renameUser(identity, SYSTEM, 'ALICE', 'alicia');

    expect(renamed).toMatchObject({ id: alice.id, login: 'alicia' });
    expect(await identity.store.userByLogin('alice')).toBeUndefined();
    expect(identity.store.published.slice(-2)).toEqual([
      { kind: 'user.updated', user: renamed },
      { kind: 'credential.revoked', user_id: alice.id },
    ]);
  });

  it('allows a change of case only', async () => {
    const identity = memoryIdentity();
    await givenUser(identity, 'alice');
    expect((await renameUser(identity, SYSTEM, 'alice', 'Alice')).login).toBe('Alice');
  });

  it('does nothing when the name is the same', async () => {
    const identity = memoryIdentity();
    await givenUser(identity, 'alice');
    const before = identity.store.published.length;
    await renameUser(identity, SYSTEM, 'alice', 'alice');
    expect(identity.store.published.length).toBe(before);
  });

  it('refuses a name another user has, in any case', async () => {
    const identity = memoryIdentity();
    await givenUser(identity, 'alice');
    await givenUser(identity, 'bob');
    expect(await failureOf(renameUser(identity, SYSTEM, 'alice', 'BOB'))).toMatchObject({ kind: 'already_exists', message: 'user already exists [name: BOB]' });
  });

  it('refuses reserved and malformed names', async () => {
    const identity = memoryIdentity();
    await givenUser(identity, 'alice');
    expect(await failureOf(renameUser(identity, SYSTEM, 'alice', 'api'))).toMatchObject({ kind: 'invalid', reason: 'name_reserved' });
    expect(await failureOf(renameUser(identity, SYSTEM, 'alice', 'a b'))).toMatchObject({ kind: 'invalid', reason: 'name_chars_not_allowed' });
    expect(await failureOf(renameUser(identity, SYSTEM, 'alice', 'x.keys'))).toMatchObject({ kind: 'invalid', reason: 'name_pattern_not_allowed' });
    expect((await identity.store.userByLogin('alice'))?.login).toBe('alice');
  });

  it('is site-admin work, and an unknown user is not found', async () => {
    const identity = memoryIdentity();
    const alice = await givenUser(identity, 'alice');
    expect(await failureOf(renameUser(identity, callerOf(alice), 'alice', 'alicia'))).toMatchObject({ kind: 'forbidden' });
    expect(await failureOf(renameUser(identity, SYSTEM, 'nobody', 'somebody'))).toMatchObject({ kind: 'not_found' });
  });
});
