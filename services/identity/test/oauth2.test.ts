import { describe, expect, it } from '@jest/globals';
import { authenticate } from '../src/domain/authenticate.js';
import {
  createOAuth2Application, deleteOAuth2Application, getOAuth2Application, listOAuth2Applications, updateOAuth2Application,
} from '../src/domain/oauth2-applications.js';
import { authorize, exchangeToken, grantScopesOf, type TokenRequest } from '../src/domain/oauth2-flow.js';
import { challengeMethodOf, s256Challenge, verifyCodeVerifier } from '../src/domain/oauth2-pkce.js';
import { matchRedirectUri, normalizeRedirectUris, validateRedirectUri } from '../src/domain/oauth2-redirect-uris.js';
import { hashSecret } from '../src/domain/oauth2-secrets.js';
import { callerOf, failureOf, givenUser } from './support/fixtures.js';
import { memoryOAuth2 } from './support/memory-oauth2-store.js';

// RFC 7636 appendix B.
const VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const CALLBACK = 'https://client.example/cb';

async function setUp(confidential = false) {
  const ctx = memoryOAuth2();
  const alice = await givenUser(ctx.identity, 'alice');
  const bob = await givenUser(ctx.identity, 'bob');
  const app = await createOAuth2Application(ctx, callerOf(alice), alice.id, {
    name: 'client', redirect_uris: [CALLBACK], confidential_client: confidential, skip_secondary_authorization: false,
  });
  return { ctx, alice, bob, app };
}

type Setup = Awaited<ReturnType<typeof setUp>>;

const tokenRequest = (app: Setup['app'], fields: Partial<TokenRequest>): TokenRequest => ({
  grant_type: 'authorization_code', code: '', redirect_uri: CALLBACK, client_id: app.client_id, client_secret: '',
  code_verifier: '', refresh_token: '', ...fields,
});

async function codeFor({ ctx, bob, app }: Setup, scope = '') {
  const { code } = await authorize(ctx, callerOf(bob), {
    client_id: app.client_id, redirect_uri: CALLBACK, response_type: 'code', scope, code_challenge: CHALLENGE, code_challenge_method: 'S256',
  });
  return code;
}

describe('redirect URIs', () => {
  it.each(['https://client.example/cb', 'http://127.0.0.1:8080/cb?x=1', 'com.example.app:/oauth2redirect'])('accepts %s', (uri) => {
    expect(() => validateRedirectUri(uri)).not.toThrow();
  });

  it.each(['', 'not a url', '/relative', 'https://client.example/cb#fragment', 'javascript:alert(1)',
    'data:text/html,x', 'https://user:pw@client.example/cb', 'myapp:/cb'])('refuses %j', (uri) => {
    expect(() => validateRedirectUri(uri)).toThrow(/invalid redirect URI/);
  });

  it('needs at least one and drops duplicates', () => {
    expect(() => normalizeRedirectUris([])).toThrow('[redirect_uris]: Required');
    expect(normalizeRedirectUris([CALLBACK, CALLBACK, 'https://b.example/'])).toEqual([CALLBACK, 'https://b.example/']);
  });

  it('match exactly, except any port on loopback for public clients', () => {
    expect(matchRedirectUri([CALLBACK], CALLBACK, true)).toBe(CALLBACK);
    expect(matchRedirectUri([CALLBACK], `${CALLBACK}/more`, false)).toBeUndefined();
    expect(matchRedirectUri([CALLBACK], 'https://CLIENT.example/cb?x=1', false)).toBeUndefined();
    expect(matchRedirectUri(['http://127.0.0.1/cb'], 'http://127.0.0.1:51234/cb', false)).toBe('http://127.0.0.1/cb');
    expect(matchRedirectUri(['http://127.0.0.1/cb'], 'http://127.0.0.1:51234/cb', true)).toBeUndefined();
    expect(matchRedirectUri(['http://127.0.0.1/cb'], 'http://127.0.0.1:51234/other', false)).toBeUndefined();
  });
});

describe('PKCE', () => {
  it('computes S256 as RFC 7636 does and verifies the verifier', () => {
    expect(s256Challenge(VERIFIER)).toBe(CHALLENGE);
    expect(verifyCodeVerifier('S256', CHALLENGE, VERIFIER)).toBe(true);
    expect(verifyCodeVerifier('S256', CHALLENGE, `${VERIFIER.slice(0, -1)}A`)).toBe(false);
  });

  it('compares plain challenges as they are, and refuses malformed verifiers', () => {
    expect(verifyCodeVerifier('plain', VERIFIER, VERIFIER)).toBe(true);
    expect(verifyCodeVerifier('plain', 'short', 'short')).toBe(false);
  });

  it('reads a missing method as plain and refuses unknown ones', () => {
    expect(challengeMethodOf('', CHALLENGE)).toBe('plain');
    expect(challengeMethodOf('S256', CHALLENGE)).toBe('S256');
    expect(challengeMethodOf('S512', CHALLENGE)).toBeUndefined();
    expect(challengeMethodOf('', '')).toBe('');
  });
});

describe('OAuth2 applications', () => {
  it('show the secret once and keep only its hash', async () => {
    const { ctx, alice, app } = await setUp();
    expect(app.client_secret).toMatch(/^gto_/);
    const stored = await ctx.store.application(app.id);
    expect(stored?.client_secret_hash).toBe(hashSecret(app.client_secret));
    expect(stored).not.toHaveProperty('client_secret');
    const listed = await listOAuth2Applications(ctx, callerOf(alice), alice.id, {});
    expect(listed.items[0]).not.toHaveProperty('client_secret');
  });

  it("of another user are not found", async () => {
    const { ctx, bob, app } = await setUp();
    expect(await failureOf(getOAuth2Application(ctx, callerOf(bob), bob.id, app.id))).toMatchObject({ kind: 'not_found' });
    expect(await failureOf(deleteOAuth2Application(ctx, callerOf(bob), bob.id, app.id))).toMatchObject({ kind: 'not_found' });
    expect(await failureOf(getOAuth2Application(ctx, callerOf(bob), 1, app.id))).toMatchObject({ kind: 'forbidden' });
  });

  it('get a new secret on every update', async () => {
    const { ctx, alice, app } = await setUp();
    const updated = await updateOAuth2Application(ctx, callerOf(alice), alice.id, app.id, {
      name: 'renamed', redirect_uris: ['https://new.example/cb'], confidential_client: true, skip_secondary_authorization: false,
    });
    expect(updated).toMatchObject({ name: 'renamed', client_id: app.client_id, confidential_client: true });
    expect(updated.client_secret).not.toBe(app.client_secret);
    expect((await ctx.store.application(app.id))?.client_secret_hash).toBe(hashSecret(updated.client_secret));
  });

  it('refuse an empty name and bad redirect URIs', async () => {
    const { ctx, alice } = await setUp();
    const input = { name: '', redirect_uris: [CALLBACK], confidential_client: false, skip_secondary_authorization: false };
    expect(await failureOf(createOAuth2Application(ctx, callerOf(alice), alice.id, input))).toMatchObject({ reason: 'oauth2_application_name_required' });
    expect(await failureOf(createOAuth2Application(ctx, callerOf(alice), alice.id, { ...input, name: 'x', redirect_uris: ['nope'] })))
      .toMatchObject({ kind: 'invalid', reason: 'invalid_redirect_uri' });
  });
});

describe('the authorization-code flow', () => {
  it('exchanges a code once for tokens that authenticate as the user with the granted scopes', async () => {
    const setup = await setUp();
    const { ctx, bob, app } = setup;
    const code = await codeFor(setup, 'openid read:user');
    const tokens = await exchangeToken(ctx, tokenRequest(app, { code, code_verifier: VERIFIER }));
    expect(tokens).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(tokens.user.id).toBe(bob.id);

    const auth = await authenticate(ctx.identity, { kind: 'token', token: tokens.access_token });
    expect(auth).toMatchObject({ method: 'oauth2', scopes: ['read:user'], token_hash: hashSecret(tokens.access_token) });
    expect(auth.user.id).toBe(bob.id);

    const reuse = await failureOf(exchangeToken(ctx, tokenRequest(app, { code, code_verifier: VERIFIER })));
    expect(reuse).toMatchObject({ reason: 'invalid_grant' });
  });

  it('refuses a wrong verifier, another redirect URI and an expired code', async () => {
    const setup = await setUp();
    const { ctx, app } = setup;
    const code = await codeFor(setup);
    expect(await failureOf(exchangeToken(ctx, tokenRequest(app, { code, code_verifier: 'x'.repeat(43) })))).toMatchObject({ reason: 'invalid_grant' });
    expect(await failureOf(exchangeToken(ctx, tokenRequest(app, { code })))).toMatchObject({ reason: 'invalid_request' });
    expect(await failureOf(exchangeToken(ctx, tokenRequest(app, { code, code_verifier: VERIFIER, redirect_uri: 'https://client.example/other' }))))
      .toMatchObject({ reason: 'invalid_grant' });

    const late = await codeFor(setup);
    ctx.clock.now = new Date(ctx.clock.now.getTime() + 11 * 60_000);
    expect(await failureOf(exchangeToken(ctx, tokenRequest(app, { code: late, code_verifier: VERIFIER })))).toMatchObject({ reason: 'invalid_grant' });
  });

  it('requires PKCE from public clients and the secret from confidential ones', async () => {
    const pub = await setUp(false);
    const asked = { client_id: pub.app.client_id, redirect_uri: CALLBACK, response_type: 'code', scope: '', code_challenge: '', code_challenge_method: '' };
    expect(await failureOf(authorize(pub.ctx, callerOf(pub.bob), asked))).toMatchObject({ reason: 'invalid_request' });

    const conf = await setUp(true);
    const { code } = await authorize(conf.ctx, callerOf(conf.bob), { ...asked, client_id: conf.app.client_id });
    expect(await failureOf(exchangeToken(conf.ctx, tokenRequest(conf.app, { code, client_secret: 'gto_wrong' })))).toMatchObject({ reason: 'invalid_client' });
    const tokens = await exchangeToken(conf.ctx, tokenRequest(conf.app, { code, client_secret: conf.app.client_secret }));
    expect(tokens.access_token).toMatch(/^gta_/);
  });

  it('refuses unknown clients and unregistered redirect URIs before anything else', async () => {
    const { ctx, bob, app } = await setUp();
    const asked = { client_id: app.client_id, redirect_uri: CALLBACK, response_type: 'token', scope: '', code_challenge: CHALLENGE, code_challenge_method: 'S256' };
    expect(await failureOf(authorize(ctx, callerOf(bob), { ...asked, client_id: 'nope' }))).toMatchObject({ reason: 'invalid_client' });
    expect(await failureOf(authorize(ctx, callerOf(bob), { ...asked, redirect_uri: 'https://evil.example/' }))).toMatchObject({ reason: 'invalid_redirect_uri' });
    expect(await failureOf(authorize(ctx, callerOf(bob), asked))).toMatchObject({ reason: 'unsupported_response_type' });
  });

  it('rotates refresh tokens: the old pair stops working and its revocation is announced', async () => {
    const setup = await setUp();
    const { ctx, bob, app } = setup;
    const first = await exchangeToken(ctx, tokenRequest(app, { code: await codeFor(setup), code_verifier: VERIFIER }));
    const second = await exchangeToken(ctx, tokenRequest(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token }));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(ctx.store.published).toContainEqual({ kind: 'credential.revoked', user_id: bob.id, token_hash: hashSecret(first.access_token) });

    expect(await failureOf(authenticate(ctx.identity, { kind: 'token', token: first.access_token }))).toMatchObject({ kind: 'unauthenticated' });
    expect((await authenticate(ctx.identity, { kind: 'token', token: second.access_token })).user.id).toBe(bob.id);
    const third = await exchangeToken(ctx, tokenRequest(app, { grant_type: 'refresh_token', refresh_token: second.refresh_token }));
    expect((await authenticate(ctx.identity, { kind: 'token', token: third.access_token })).user.id).toBe(bob.id);
  });

  it('revokes the grant when a refresh token is used a second time (it was copied)', async () => {
    const setup = await setUp();
    const { ctx, bob, app } = setup;
    const first = await exchangeToken(ctx, tokenRequest(app, { code: await codeFor(setup), code_verifier: VERIFIER }));
    const second = await exchangeToken(ctx, tokenRequest(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token }));
    const replay = await failureOf(exchangeToken(ctx, tokenRequest(app, { grant_type: 'refresh_token', refresh_token: first.refresh_token })));
    expect(replay).toMatchObject({ reason: 'invalid_grant' });
    expect(ctx.store.tokens).toEqual([]);
    expect(ctx.store.published.at(-1)).toEqual({ kind: 'credential.revoked', user_id: bob.id });
    expect(await failureOf(authenticate(ctx.identity, { kind: 'token', token: second.access_token }))).toMatchObject({ kind: 'unauthenticated' });
    expect(await failureOf(exchangeToken(ctx, tokenRequest(app, { grant_type: 'refresh_token', refresh_token: second.refresh_token }))))
      .toMatchObject({ reason: 'invalid_grant' });
  });

  it('ends every token of an application when it is deleted, announcing it per user', async () => {
    const setup = await setUp();
    const { ctx, alice, bob, app } = setup;
    const tokens = await exchangeToken(ctx, tokenRequest(app, { code: await codeFor(setup), code_verifier: VERIFIER }));
    expect(await deleteOAuth2Application(ctx, callerOf(alice), alice.id, app.id)).toEqual([bob.id]);
    expect(ctx.store.published).toContainEqual({ kind: 'credential.revoked', user_id: bob.id });
    expect(ctx.store.tokens).toEqual([]);
    expect(await failureOf(authenticate(ctx.identity, { kind: 'token', token: tokens.access_token }))).toMatchObject({ kind: 'unauthenticated' });
  });

  it('grants all API scopes unless the client names some, and refuses unknown ones', () => {
    expect(grantScopesOf('openid profile email')).toEqual(['all']);
    expect(grantScopesOf('read:user write:repository')).toEqual(['write:repository', 'read:user']);
    expect(() => grantScopesOf('read:everything')).toThrow(/invalid access token scope/);
  });
});
