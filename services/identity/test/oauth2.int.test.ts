// Integration test: the OAuth2 rules over the PostgreSQL store (PostgreSQL from
// ANVIL_TEST_PG_URL, default the local trust-auth server). A database of its own per run,
// dropped afterwards. Checks what only the real store can show: the one-statement token
// lookup, a code taken once under concurrency, cascades and outbox rows on delete.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { authenticate } from '../src/domain/authenticate.js';
import type { Identity } from '../src/domain/context.js';
import { DEFAULT_OAUTH2_SETTINGS, type OAuth2Context } from '../src/domain/oauth2.js';
import { createOAuth2Application, deleteOAuth2Application, listOAuth2Applications } from '../src/domain/oauth2-applications.js';
import { authorize, exchangeToken } from '../src/domain/oauth2-flow.js';
import { s256Challenge } from '../src/domain/oauth2-pkce.js';
import type { IdentityDb } from '../src/store/db.js';
import { identityStore } from '../src/store/identity-store.js';
import { oauth2Store } from '../src/store/oauth2-store.js';
import { callerOf, givenUser } from './support/fixtures.js';
import { FakeHasher, TEST_SETTINGS } from './support/memory-store.js';
import { identityTestbed, type IdentityTestbed } from './support/testbed.js';

const CALLBACK = 'https://client.example/cb';
const VERIFIER = randomBytes(32).toString('base64url');

let tb: IdentityTestbed;
let db: IdentityDb;
let ctx: OAuth2Context;

beforeAll(async () => {
  tb = await identityTestbed('oauth2');
  db = tb.db;
  const store = oauth2Store(db);
  const identity: Identity = { store: identityStore(db), hasher: new FakeHasher(), settings: TEST_SETTINGS, oauth2: store };
  ctx = { identity, store, settings: DEFAULT_OAUTH2_SETTINGS };
}, 60_000);

afterAll(() => tb?.close());

let serial = 0;
async function given() {
  serial += 1;
  const owner = await givenUser(ctx.identity, `owner${serial}`);
  const user = await givenUser(ctx.identity, `user${serial}`);
  const app = await createOAuth2Application(ctx, callerOf(owner), owner.id, {
    name: 'client', redirect_uris: [CALLBACK], confidential_client: false, skip_secondary_authorization: false,
  });
  const code = async () => (await authorize(ctx, callerOf(user), {
    client_id: app.client_id, redirect_uri: CALLBACK, response_type: 'code', scope: 'read:user',
    code_challenge: s256Challenge(VERIFIER), code_challenge_method: 'S256',
  })).code;
  const exchange = (c: string) => exchangeToken(ctx, {
    grant_type: 'authorization_code', code: c, redirect_uri: CALLBACK, client_id: app.client_id, client_secret: '', code_verifier: VERIFIER, refresh_token: '',
  });
  return { owner, user, app, code, exchange };
}

describe('OAuth2 over PostgreSQL', () => {
  it('stores applications with hashed secrets and lists them per owner', async () => {
    const { owner, app } = await given();
    const row = await db.oAuth2Application.findUniqueOrThrow({ where: { id: BigInt(app.id) } });
    expect(row.client_secret_hash).not.toContain(app.client_secret);
    const listed = await listOAuth2Applications(ctx, callerOf(owner), owner.id, { page: 1, limit: 10 });
    expect(listed).toMatchObject({ total: 1, items: [{ id: app.id, redirect_uris: [CALLBACK] }] });
  });

  it('exchanges a code for a token that Authenticate resolves with its user and scopes', async () => {
    const { user, code, exchange } = await given();
    const tokens = await exchange(await code());
    const auth = await authenticate(ctx.identity, { kind: 'token', token: tokens.access_token });
    expect(auth).toMatchObject({ method: 'oauth2', scopes: ['read:user'] });
    expect(auth.user.id).toBe(user.id);
  });

  it('lets only one of two concurrent exchanges of a code succeed', async () => {
    const { app, code, exchange } = await given();
    const c = await code();
    const results = await Promise.allSettled([exchange(c), exchange(c)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { reason: 'invalid_grant' } });
    expect(await db.oAuth2Token.count({ where: { grant: { application_id: BigInt(app.id) } } })).toBe(1);
  });

  it('deletes grants and tokens with the application and queues credential.revoked for the user', async () => {
    const { owner, user, app, code, exchange } = await given();
    const tokens = await exchange(await code());
    const before = await db.outboxEvent.count({ where: { subject: 'identity.credential.revoked' } });
    expect(await deleteOAuth2Application(ctx, callerOf(owner), owner.id, app.id)).toEqual([user.id]);
    expect(await db.oAuth2Grant.count({ where: { application_id: BigInt(app.id) } })).toBe(0);
    expect(await db.outboxEvent.count({ where: { subject: 'identity.credential.revoked' } })).toBe(before + 1);
    await expect(authenticate(ctx.identity, { kind: 'token', token: tokens.access_token })).rejects.toMatchObject({ kind: 'unauthenticated' });
  });
});
