import { describe, it, expect } from '@jest/globals';
import { addEmails, deleteEmails, listEmails } from '../src/domain/emails.js';
import { memoryIdentity } from './support/memory-store.js';
import { callerOf, failureOf, givenUser } from './support/fixtures.js';

async function setUp() {
  const identity = memoryIdentity();
  const alice = await givenUser(identity, 'alice');
  const bob = await givenUser(identity, 'bob');
  return { identity, alice, bob, asAlice: callerOf(alice) };
}

describe('a user\'s e-mail addresses', () => {
  it('lists the primary address first, with the owner\'s login', async () => {
    const { identity, alice, asAlice } = await setUp();

    expect(await listEmails(identity, asAlice, alice.id)).toEqual([
      { id: expect.any(Number), user_id: alice.id, email: 'alice@example.com', verified: true, is_primary: true, login: 'alice' },
    ]);
  });

  it('adds addresses as verified and answers every address of the user', async () => {
    const { identity, alice, asAlice } = await setUp();

    const emails = await addEmails(identity, asAlice, alice.id, ['alice@work.example', 'a@home.example']);

    expect(emails.map((e) => [e.email, e.verified, e.is_primary])).toEqual([
      ['alice@example.com', true, true], ['alice@work.example', true, false], ['a@home.example', true, false],
    ]);
  });

  it('announces the user as updated when addresses are added or removed (whose commits they are changes)', async () => {
    const { identity, alice, asAlice } = await setUp();

    await addEmails(identity, asAlice, alice.id, ['alice@work.example']);
    expect(identity.store.published.at(-1)).toMatchObject({ kind: 'user.updated', user: { id: alice.id } });
    const before = identity.store.published.length;
    await deleteEmails(identity, asAlice, alice.id, ['alice@work.example']);
    expect(identity.store.published.slice(before)).toMatchObject([{ kind: 'user.updated', user: { id: alice.id } }]);
  });

  it('refuses an address in use by anyone, in any case, adding none of the request', async () => {
    const { identity, alice, asAlice } = await setUp();

    expect(await failureOf(addEmails(identity, asAlice, alice.id, ['new@example.com', 'BOB@example.com']))).toEqual({
      kind: 'already_exists', reason: 'email_already_used', message: 'Email address has been used: BOB@example.com',
    });
    expect(await failureOf(addEmails(identity, asAlice, alice.id, ['dup@example.com', 'DUP@example.com']))).toMatchObject({ reason: 'email_already_used' });
    expect(await listEmails(identity, asAlice, alice.id)).toHaveLength(1);
  });

  it('refuses an invalid address and an empty list', async () => {
    const { identity, alice, asAlice } = await setUp();

    expect(await failureOf(addEmails(identity, asAlice, alice.id, ['not an address']))).toEqual({
      kind: 'invalid', reason: 'email_invalid', message: 'Email address "not an address" invalid',
    });
    expect(await failureOf(addEmails(identity, asAlice, alice.id, []))).toMatchObject({ kind: 'invalid', reason: 'email_list_empty' });
  });

  it('deletes addresses, but never the primary one', async () => {
    const { identity, alice, asAlice } = await setUp();
    await addEmails(identity, asAlice, alice.id, ['alice@work.example']);

    await deleteEmails(identity, asAlice, alice.id, ['ALICE@work.example']);
    expect((await listEmails(identity, asAlice, alice.id)).map((e) => e.email)).toEqual(['alice@example.com']);

    expect(await failureOf(deleteEmails(identity, asAlice, alice.id, ['alice@example.com']))).toEqual({
      kind: 'invalid', reason: 'primary_email_cannot_delete', message: 'Primary email address cannot be deleted [email: alice@example.com]',
    });
    expect(await failureOf(deleteEmails(identity, asAlice, alice.id, ['bob@example.com']))).toEqual({
      kind: 'not_found', reason: 'email_not_found', message: 'Email address does not exist [email: bob@example.com]',
    });
  });

  it('belong to the user and site administrators only', async () => {
    const { identity, alice, bob } = await setUp();

    expect(await failureOf(listEmails(identity, callerOf(bob), alice.id))).toMatchObject({ kind: 'forbidden' });
    expect(await failureOf(addEmails(identity, callerOf(bob), alice.id, ['x@example.com']))).toMatchObject({ kind: 'forbidden' });
  });
});
