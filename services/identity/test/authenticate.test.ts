import { describe, it, expect } from '@jest/globals';
import { createAccessToken } from '../src/domain/access-tokens.js';
import { authenticate, TOKEN_USE_INTERVAL_MS } from '../src/domain/authenticate.js';
import { editUser } from '../src/domain/accounts.js';
import { hashToken } from '../src/domain/tokens.js';
import { memoryIdentity } from './support/memory-store.js';
import { SYSTEM, failureOf, givenUser } from './support/fixtures.js';

async function withTokenUser() {
  const identity = memoryIdentity();
  const alice = await givenUser(identity, 'alice', { password: 'alice-password' });
  const { token } = await createAccessToken(identity, SYSTEM, alice.id, 'ci', ['read:repository', 'write:issue']);
  return { identity, alice, token };
}

const WRONG = { kind: 'unauthenticated', reason: 'unauthenticated', message: 'invalid username, password or token' };

describe('authenticating with an access token', () => {
  it('answers the user, the token\'s scopes and its hash', async () => {
    const { identity, alice, token } = await withTokenUser();

    const result = await authenticate(identity, { kind: 'token', token });

    expect(result).toMatchObject({ user: { id: alice.id }, scopes: ['write:issue', 'read:repository'], method: 'token', token_hash: hashToken(token) });
  });

  it('accepts the token as the Basic password, whatever the username, and as the username with an empty or x-oauth-basic password', async () => {
    const { identity, alice, token } = await withTokenUser();

    for (const basic of [
      { username: 'anyone', password: token },
      { username: token, password: '' },
      { username: token, password: 'x-oauth-basic' },
    ]) {
      expect(await authenticate(identity, { kind: 'basic', ...basic })).toMatchObject({ user: { id: alice.id }, method: 'token' });
    }
  });

  it('refuses an unknown or malformed token', async () => {
    const { identity, token } = await withTokenUser();
    const other = token.replace(/.$/, (c) => (c === '0' ? '1' : '0'));

    expect(await failureOf(authenticate(identity, { kind: 'token', token: other }))).toEqual(WRONG);
    expect(await failureOf(authenticate(identity, { kind: 'token', token: 'not-a-token' }))).toEqual(WRONG);
    expect(await failureOf(authenticate(identity, undefined))).toEqual(WRONG);
  });

  it('records the token\'s use, at most every thirty seconds', async () => {
    const { identity, alice, token } = await withTokenUser();
    await authenticate(identity, { kind: 'token', token });
    expect(identity.store.touched).toEqual([]); // created a moment ago

    const [stored] = await identity.store.accessTokensNamed(alice.id, 'ci');
    identity.store.setTokenUpdated(stored.id, new Date(Date.now() - TOKEN_USE_INTERVAL_MS));
    await authenticate(identity, { kind: 'token', token });

    expect(identity.store.touched).toEqual([stored.id]);
  });
});

describe('authenticating with a password', () => {
  it('accepts the login in any case, or an e-mail address, with the right password and grants all', async () => {
    const { identity, alice } = await withTokenUser();

    for (const username of ['alice', 'ALICE', 'alice@example.com', 'Alice@Example.COM']) {
      expect(await authenticate(identity, { kind: 'basic', username, password: 'alice-password' })).toEqual({
        user: expect.objectContaining({ id: alice.id }), scopes: ['all'], method: 'password', token_hash: '',
      });
    }
  });

  it('refuses a wrong password as unauthenticated', async () => {
    const { identity } = await withTokenUser();

    expect(await failureOf(authenticate(identity, { kind: 'basic', username: 'alice', password: 'wrong-password' }))).toEqual(WRONG);
  });

  it('spends a dummy verification on an unknown account, so timing does not tell which logins exist', async () => {
    const { identity } = await withTokenUser();

    expect(await failureOf(authenticate(identity, { kind: 'basic', username: 'nobody', password: 'whatever-pw' }))).toEqual(WRONG);
    expect(identity.hasher.dummyVerifications).toBe(1);
  });

  it('refuses an inactive or login-prohibited account, only once the credential was right', async () => {
    const { identity, token } = await withTokenUser();
    await editUser(identity, SYSTEM, { login: 'alice', prohibit_login: true });

    expect(await failureOf(authenticate(identity, { kind: 'basic', username: 'alice', password: 'alice-password' }))).toEqual({
      kind: 'forbidden', reason: 'user_prohibit_login', message: 'This account is prohibited from signing in, please contact your site administrator.',
    });
    expect(await failureOf(authenticate(identity, { kind: 'token', token }))).toMatchObject({ kind: 'forbidden', reason: 'user_prohibit_login' });
    expect(await failureOf(authenticate(identity, { kind: 'basic', username: 'alice', password: 'wrong-password' }))).toEqual(WRONG);

    await editUser(identity, SYSTEM, { login: 'alice', prohibit_login: false, active: false });
    expect(await failureOf(authenticate(identity, { kind: 'token', token }))).toMatchObject({ kind: 'forbidden', reason: 'user_inactive' });
  });
});
