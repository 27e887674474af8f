import { describe, it, expect } from '@jest/globals';
import { createUser, deleteUser, editUser, bootstrapAdmin } from '../src/domain/accounts.js';
import { createLogger } from '@anvil/kit';
import { memoryIdentity } from './support/memory-store.js';
import { ANONYMOUS, SYSTEM, callerOf, failureOf, givenUser, userInput } from './support/fixtures.js';

const silent = createLogger('identity-test');
silent.level = 'silent';

describe('creating a user', () => {
  it('stores an active account with its primary address and announces it', async () => {
    const identity = memoryIdentity();
    const user = await createUser(identity, SYSTEM, userInput('Alice', { full_name: 'Alice Liddell', email: 'Alice@Example.com' }));

    expect(user).toMatchObject({ login: 'Alice', full_name: 'Alice Liddell', email: 'Alice@Example.com', active: true, type: 'user', max_repo_creation: -1 });
    expect(user.passwd).toBe('hashed:secret-Alice');
    expect(await identity.store.emailsOf(user.id)).toEqual([{ id: expect.any(Number), user_id: user.id, email: 'Alice@Example.com', verified: true, is_primary: true }]);
    expect(identity.store.published).toEqual([{ kind: 'user.created', user }]);
  });

  it('takes the configured defaults for visibility and e-mail privacy unless told otherwise', async () => {
    const identity = memoryIdentity({ newUser: { visibility: 'limited', keep_email_private: true, allow_create_organization: false } });
    const byDefault = await createUser(identity, SYSTEM, userInput('alice'));
    const chosen = await createUser(identity, SYSTEM, userInput('bob', { visibility: 'private' }));

    expect(byDefault).toMatchObject({ visibility: 'limited', keep_email_private: true, allow_create_organization: false });
    expect(chosen.visibility).toBe('private');
  });

  it('is work for site administrators only', async () => {
    const identity = memoryIdentity();
    const alice = await givenUser(identity, 'alice');

    expect(await failureOf(createUser(identity, callerOf(alice), userInput('bob')))).toMatchObject({ kind: 'forbidden' });
    expect(await failureOf(createUser(identity, ANONYMOUS, userInput('bob')))).toMatchObject({ kind: 'forbidden' });
  });

  it('refuses a login taken in another case, with Gitea\'s message', async () => {
    const identity = memoryIdentity();
    await givenUser(identity, 'alice');

    expect(await failureOf(createUser(identity, SYSTEM, userInput('ALICE', { email: 'other@example.com' })))).toEqual({
      kind: 'already_exists', reason: 'user_already_exists', message: 'user already exists [name: ALICE]',
    });
  });

  it('refuses an address another account uses, in any case', async () => {
    const identity = memoryIdentity();
    await givenUser(identity, 'alice');

    expect(await failureOf(createUser(identity, SYSTEM, userInput('bob', { email: 'ALICE@example.com' })))).toEqual({
      kind: 'already_exists', reason: 'email_already_used', message: 'e-mail already in use [email: ALICE@example.com]',
    });
  });

  it('refuses an invalid login, address or short password before storing anything', async () => {
    const identity = memoryIdentity();

    expect(await failureOf(createUser(identity, SYSTEM, userInput('api')))).toMatchObject({ kind: 'invalid', reason: 'name_reserved' });
    expect(await failureOf(createUser(identity, SYSTEM, userInput('bob', { email: 'not-an-address' })))).toEqual({
      kind: 'invalid', reason: 'email_invalid', message: 'e-mail address contains unsupported character [email: not-an-address]',
    });
    expect(await failureOf(createUser(identity, SYSTEM, userInput('bob', { password: 'short' })))).toEqual({
      kind: 'bad_request', reason: 'password_too_short', message: 'PasswordIsRequired',
    });
    expect(await failureOf(createUser(identity, SYSTEM, userInput('bob', { source_id: 3 })))).toEqual({
      kind: 'invalid', reason: 'login_source_not_found', message: 'login source does not exist [id: 3]',
    });
    expect(identity.store.published).toEqual([]);
  });
});

describe('editing a user', () => {
  it('changes only the fields given and announces the new state', async () => {
    const identity = memoryIdentity();
    await givenUser(identity, 'alice', { full_name: 'Alice' });

    const edited = await editUser(identity, SYSTEM, { login: 'ALICE', location: 'Wonderland', visibility: 'limited', max_repo_creation: -5 });

    expect(edited).toMatchObject({ full_name: 'Alice', location: 'Wonderland', visibility: 'limited', max_repo_creation: -1 });
    expect(identity.store.published.at(-1)).toEqual({ kind: 'user.updated', user: edited });
  });

  it('revokes cached credentials when the password, admin flag, activation, login prohibition or restriction changes', async () => {
    const edits = [{ password: 'a-new-password' }, { admin: true }, { active: false }, { prohibit_login: true }, { restricted: true }];
    for (const edit of edits) {
      const identity = memoryIdentity();
      const alice = await givenUser(identity, 'alice');
      await editUser(identity, SYSTEM, { login: 'alice', ...edit });
      expect(identity.store.published.at(-1)).toEqual({ kind: 'credential.revoked', user_id: alice.id });
    }
  });

  it('publishes nothing when nothing changes', async () => {
    const identity = memoryIdentity();
    await givenUser(identity, 'alice', { full_name: 'Alice' });
    const before = identity.store.published.length;

    await editUser(identity, SYSTEM, { login: 'alice', full_name: 'Alice', active: true });

    expect(identity.store.published).toHaveLength(before);
  });

  it('replaces the primary address, refusing one another account holds', async () => {
    const identity = memoryIdentity();
    const alice = await givenUser(identity, 'alice');
    await givenUser(identity, 'bob');

    const edited = await editUser(identity, SYSTEM, { login: 'alice', email: 'alice@new.example' });
    expect(edited.email).toBe('alice@new.example');
    expect((await identity.store.emailsOf(alice.id)).map((e) => [e.email, e.is_primary])).toEqual([['alice@new.example', true]]);

    expect(await failureOf(editUser(identity, SYSTEM, { login: 'alice', email: 'BOB@example.com' }))).toEqual({
      kind: 'already_exists', reason: 'email_already_used', message: 'e-mail already in use [email: BOB@example.com]',
    });
    expect(await failureOf(editUser(identity, SYSTEM, { login: 'alice', email: 'nope' }))).toMatchObject({ kind: 'bad_request', reason: 'email_invalid' });
  });

  it('refuses a password shorter than [security] MIN_PASSWORD_LENGTH', async () => {
    const identity = memoryIdentity({ minPasswordLength: 12 });
    await givenUser(identity, 'alice', { password: 'long-enough-pw' });

    expect(await failureOf(editUser(identity, SYSTEM, { login: 'alice', password: 'eleven-char' }))).toEqual({
      kind: 'bad_request', reason: 'password_too_short', message: 'password must be at least 12 characters',
    });
  });

  it('keeps the last site administrator an administrator', async () => {
    const identity = memoryIdentity();
    const root = await givenUser(identity, 'root', { is_admin: true });

    expect(await failureOf(editUser(identity, SYSTEM, { login: 'root', admin: false }))).toEqual({
      kind: 'bad_request', reason: 'last_admin', message: `can not delete the last admin user [uid: ${root.id}]`,
    });
    await givenUser(identity, 'second', { is_admin: true });
    expect((await editUser(identity, SYSTEM, { login: 'root', admin: false })).is_admin).toBe(false);
  });

  it('answers not found for an unknown login', async () => {
    expect(await failureOf(editUser(memoryIdentity(), SYSTEM, { login: 'ghost-user', full_name: 'x' }))).toMatchObject({
      kind: 'not_found', reason: 'user_not_found',
    });
  });
});

describe('deleting a user', () => {
  it('removes the account with its addresses and tokens, announcing the deletion and the revocation', async () => {
    const identity = memoryIdentity();
    const alice = await givenUser(identity, 'alice');

    await deleteUser(identity, SYSTEM, 'Alice');

    expect(await identity.store.userById(alice.id)).toBeUndefined();
    expect(await identity.store.emailAddress('alice@example.com')).toBeUndefined();
    expect(identity.store.published.slice(-2)).toEqual([
      { kind: 'user.deleted', user_id: alice.id, login: 'alice' },
      { kind: 'credential.revoked', user_id: alice.id },
    ]);
  });

  it('refuses deleting oneself and the last administrator', async () => {
    const identity = memoryIdentity();
    const root = await givenUser(identity, 'root', { is_admin: true });

    expect(await failureOf(deleteUser(identity, callerOf(root), 'root'))).toMatchObject({ kind: 'invalid', reason: 'delete_self' });
    expect(await failureOf(deleteUser(identity, SYSTEM, 'root'))).toMatchObject({ kind: 'invalid', reason: 'last_admin' });
  });

  it('refuses deleting a member of an organization, as Gitea does', async () => {
    const identity = memoryIdentity();
    const alice = await givenUser(identity, 'alice');
    identity.store.setOrgMemberships(alice.id, 1);

    expect(await failureOf(deleteUser(identity, SYSTEM, 'alice'))).toEqual({
      kind: 'invalid', reason: 'user_has_orgs', message: `user still has membership of organizations [uid: ${alice.id}]`,
    });
    expect(await identity.store.userById(alice.id)).toBeDefined();
  });
});

describe('bootstrapping the site administrator', () => {
  it('creates the configured administrator once', async () => {
    const identity = memoryIdentity();
    const admin = { username: 'root', password: 'root-password', email: 'root@example.com' };

    expect(await bootstrapAdmin(identity, admin, silent)).toBe('created');
    expect(await bootstrapAdmin(identity, admin, silent)).toBe('exists');

    expect(await identity.store.userByLogin('root')).toMatchObject({ is_admin: true, active: true, must_change_password: false });
    expect(identity.store.published.filter((e) => e.kind === 'user.created')).toHaveLength(1);
  });
});
