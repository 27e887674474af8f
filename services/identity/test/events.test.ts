import { describe, it, expect } from '@jest/globals';
import { decodeEvent } from '@anvil/proto';
import { outboxRowOf } from '../src/events/identity-events.js';
import { memoryIdentity } from './support/memory-store.js';
import { givenUser } from './support/fixtures.js';

describe('identity events as outbox rows', () => {
  it('carry the user\'s state after the change, without the password hash', async () => {
    const user = await givenUser(memoryIdentity(), 'alice', { full_name: 'Alice' }, { visibility: 'private' });

    const row = outboxRowOf({ kind: 'user.updated', user });

    expect([row.subject, row.type]).toEqual(['identity.user.updated', 'anvil.identity.v1.UserUpdated']);
    const payload = decodeEvent<{ user: Record<string, unknown> }>(row.type, row.payload);
    expect(payload.user).toMatchObject({ id: user.id, login: 'alice', full_name: 'Alice', visibility: 'VISIBILITY_PRIVATE', type: 'user' });
    expect(payload.user).not.toHaveProperty('passwd');
    expect((payload.user.created_at as { seconds: number }).seconds).toBe(Math.floor(user.created_at.getTime() / 1000));
  });

  it('name the deleted user and the revoked credential', () => {
    const deleted = outboxRowOf({ kind: 'user.deleted', user_id: 7, login: 'bob' });
    const revoked = outboxRowOf({ kind: 'credential.revoked', user_id: 7, token_hash: 'ab'.repeat(32) });
    const allOfUser = outboxRowOf({ kind: 'credential.revoked', user_id: 7 });

    expect([deleted.subject, decodeEvent(deleted.type, deleted.payload)]).toEqual(['identity.user.deleted', { user_id: 7, login: 'bob' }]);
    expect([revoked.subject, decodeEvent(revoked.type, revoked.payload)]).toEqual(['identity.credential.revoked', { user_id: 7, token_hash: 'ab'.repeat(32) }]);
    expect(decodeEvent(allOfUser.type, allOfUser.payload)).toEqual({ user_id: 7, token_hash: '' });
    expect(deleted.id).not.toBe(revoked.id);
  });
});
