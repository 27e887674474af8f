// OAuth2 as a Gitea user and an OAuth2 client meet it: a user registers an application
// through the API, then a client runs the authorization-code flow with PKCE over plain
// HTTP, uses the access token on the API, refreshes it, and loses it when the application
// is deleted. One booted system for the whole file.
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { Accounts } from '../support/accounts.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(60_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let users: Accounts;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'oauth' });
  ({ system, anonymous, users } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (fields: Record<string, unknown> = {}) => users.newUser({ full_name: 'Person of OAuth', ...fields }, { repositoryKnows: false });

interface Application {
  id: number;
  name: string;
  client_id: string;
  client_secret: string;
  confidential_client: boolean;
  redirect_uris: string[];
  created: string;
}

async function registerApp(owner: ApiClient, overrides: Record<string, unknown> = {}): Promise<Application> {
  const res = await owner.post('/user/applications/oauth2', { name: 'my app', redirect_uris: ['https://client.example/callback'], confidential_client: false, ...overrides });
  expect(res.status).toBe(201);
  return res.body;
}

const basicHeader = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** GET /login/oauth/authorize as a browser would send it, without following the redirect. */
async function authorize(params: Record<string, string>, authorization?: string) {
  const url = new URL('login/oauth/authorize', system.baseUrl);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const res = await fetch(url, { redirect: 'manual', headers: authorization ? { authorization } : {} });
  return { status: res.status, location: res.headers.get('location'), headers: res.headers, body: await res.text() };
}

/** POST /login/oauth/access_token, form-encoded (the RFC's) unless `json`. */
async function tokenRequest(fields: Record<string, string>, options: { json?: boolean; authorization?: string } = {}) {
  const headers: Record<string, string> = options.json ? { 'content-type': 'application/json' } : { 'content-type': 'application/x-www-form-urlencoded' };
  if (options.authorization) headers.authorization = options.authorization;
  const res = await fetch(new URL('login/oauth/access_token', system.baseUrl), {
    method: 'POST', headers, body: options.json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
  });
  return { status: res.status, headers: res.headers, body: await res.json() as Record<string, any> };
}

/** Runs authorize for `user` and answers the code from the redirect. */
async function codeFor(user: { username: string; password: string }, app: Application, extra: Record<string, string> = {}) {
  const res = await authorize({
    client_id: app.client_id, redirect_uri: app.redirect_uris[0], response_type: 'code', state: 'xyz', ...extra,
  }, basicHeader(user.username, user.password));
  expect(res.status).toBe(302);
  const location = new URL(res.location!);
  expect(`${location.origin}${location.pathname}`).toBe(app.redirect_uris[0]);
  expect(location.searchParams.get('state')).toBe('xyz');
  return location.searchParams.get('code')!;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('OAuth2 applications', () => {
  test('are registered with a secret shown once, then listed and read without it', async () => {
    const { client } = await newUser();
    const app = await registerApp(client, { name: 'CI bot', redirect_uris: ['https://ci.example/cb', 'http://127.0.0.1/cb'], confidential_client: true });
    expect(app).toMatchObject({ name: 'CI bot', confidential_client: true, redirect_uris: ['https://ci.example/cb', 'http://127.0.0.1/cb'] });
    expect(app.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(app.client_secret).not.toBe('');
    expect(Date.parse(app.created)).not.toBeNaN();

    const list = await client.get('/user/applications/oauth2');
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('1');
    expect(list.body).toEqual([{ ...app, client_secret: '' }]);

    const one = await client.get(`/user/applications/oauth2/${app.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ ...app, client_secret: '' });
  });

  test('are updated as a whole, which regenerates the secret', async () => {
    const { client } = await newUser();
    const app = await registerApp(client);
    const res = await client.patch(`/user/applications/oauth2/${app.id}`, { name: 'renamed', redirect_uris: ['https://other.example/cb'], confidential_client: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: app.id, client_id: app.client_id, name: 'renamed', redirect_uris: ['https://other.example/cb'], confidential_client: true });
    expect(res.body.client_secret).not.toBe('');
    expect(res.body.client_secret).not.toBe(app.client_secret);
  });

  test('refuse redirect URIs that are not absolute URLs, and a missing name (400, nothing created)', async () => {
    const { client } = await newUser();
    for (const redirect_uris of [['not a url'], ['/relative/path'], ['https://x.example/cb#frag'], ['javascript:alert(1)'], []]) {
      const res = await client.post('/user/applications/oauth2', { name: 'bad', redirect_uris });
      expect(res.status).toBe(400);
    }
    expect((await client.post('/user/applications/oauth2', { name: '', redirect_uris: ['https://x.example/cb'] })).status).toBe(400);
    const list = await client.get('/user/applications/oauth2');
    expect(list.body).toEqual([]);
  });

  test("of another user are not found, and cannot be changed or deleted", async () => {
    const owner = await newUser();
    const other = await newUser();
    const app = await registerApp(owner.client);
    expect((await other.client.get(`/user/applications/oauth2/${app.id}`)).status).toBe(404);
    expect((await other.client.patch(`/user/applications/oauth2/${app.id}`, { name: 'x', redirect_uris: ['https://x.example/cb'] })).status).toBe(404);
    expect((await other.client.delete(`/user/applications/oauth2/${app.id}`)).status).toBe(404);
    expect((await other.client.get('/user/applications/oauth2')).body).toEqual([]);
    expect((await owner.client.get(`/user/applications/oauth2/${app.id}`)).status).toBe(200);
    expect((await owner.client.get('/user/applications/oauth2/not-a-number')).status).toBe(404);
  });

  test('need a token with the user scope: read:user lists, write:user creates', async () => {
    const user = await newUser();
    const tokenRes = await user.client.post(`/users/${user.username}/tokens`, { name: 'reader', scopes: ['read:user'] });
    expect(tokenRes.status).toBe(201);
    const reader = anonymous.as({ token: tokenRes.body.sha1 });
    expect((await reader.get('/user/applications/oauth2')).status).toBe(200);
    expect((await reader.post('/user/applications/oauth2', { name: 'x', redirect_uris: ['https://x.example/cb'] })).status).toBe(403);
    expect((await anonymous.get('/user/applications/oauth2')).status).toBe(401);
  });

  test('are deleted, after which they are not found', async () => {
    const { client } = await newUser();
    const app = await registerApp(client);
    expect((await client.delete(`/user/applications/oauth2/${app.id}`)).status).toBe(204);
    expect((await client.get(`/user/applications/oauth2/${app.id}`)).status).toBe(404);
    expect((await client.delete(`/user/applications/oauth2/${app.id}`)).status).toBe(404);
  });
});

describe('the authorization-code flow', () => {
  test('with PKCE gives a public client tokens that act as the user on the API, refresh, and die with the application', async () => {
    const owner = await newUser();
    const user = await newUser();
    const app = await registerApp(owner.client);
    const { verifier, challenge } = pkce();

    const code = await codeFor(user, app, { code_challenge: challenge, code_challenge_method: 'S256', scope: 'openid profile' });
    const tokens = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: app.redirect_uris[0], client_id: app.client_id, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('cache-control')).toBe('no-store');
    expect(tokens.body).toMatchObject({ token_type: 'bearer', expires_in: 3600 });
    expect(typeof tokens.body.access_token).toBe('string');
    expect(typeof tokens.body.refresh_token).toBe('string');

    const me = await anonymous.get('/user', bearer(tokens.body.access_token));
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, login: user.username });

    const info = await fetch(new URL('login/oauth/userinfo', system.baseUrl), { headers: bearer(tokens.body.access_token) });
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({
      sub: String(user.id), preferred_username: user.username, name: 'Person of OAuth', email: `${user.username}@example.com`,
    });

    // The code was used once: a second exchange is refused.
    const again = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: app.redirect_uris[0], client_id: app.client_id, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');

    // Refreshing rotates the refresh token and ends the old access token.
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: app.client_id });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(tokens.body.refresh_token);
    expect((await anonymous.get('/user', bearer(refreshed.body.access_token))).status).toBe(200);
    expect((await anonymous.get('/user', bearer(tokens.body.access_token))).status).toBe(401);

    // Deleting the application revokes its tokens at once.
    expect((await owner.client.delete(`/user/applications/oauth2/${app.id}`)).status).toBe(204);
    expect((await anonymous.get('/user', bearer(refreshed.body.access_token))).status).toBe(401);
    for (const refresh_token of [refreshed.body.refresh_token, tokens.body.refresh_token]) {
      const afterDelete = await tokenRequest({ grant_type: 'refresh_token', refresh_token, client_id: app.client_id });
      expect(afterDelete.status).toBe(400);
      expect(afterDelete.body.error).toBe('invalid_client');
    }
  });

  test('refuses a refresh token used twice, and then every token of the grant', async () => {
    const user = await newUser();
    const app = await registerApp(user.client);
    const { verifier, challenge } = pkce();
    const code = await codeFor(user, app, { code_challenge: challenge, code_challenge_method: 'S256' });
    const tokens = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: app.redirect_uris[0], client_id: app.client_id, code_verifier: verifier });
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: app.client_id });
    expect(refreshed.status).toBe(200);

    const replay = await tokenRequest({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: app.client_id });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    const next = await tokenRequest({ grant_type: 'refresh_token', refresh_token: refreshed.body.refresh_token, client_id: app.client_id });
    expect(next.status).toBe(400);
    expect(next.body.error).toBe('invalid_grant');
  });

  test('refuses a code whose PKCE verifier does not match, and a public client without PKCE', async () => {
    const user = await newUser();
    const app = await registerApp(user.client);
    const { challenge } = pkce();
    const code = await codeFor(user, app, { code_challenge: challenge, code_challenge_method: 'S256' });
    const wrong = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: app.redirect_uris[0], client_id: app.client_id, code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');

    const noPkce = await authorize({ client_id: app.client_id, redirect_uri: app.redirect_uris[0], response_type: 'code', state: 's1' }, basicHeader(user.username, user.password));
    expect(noPkce.status).toBe(302);
    const location = new URL(noPkce.location!);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('state')).toBe('s1');
    expect(location.searchParams.get('code')).toBeNull();
  });

  test('lets a confidential client exchange with its secret (JSON or HTTP Basic), and refuses a wrong one', async () => {
    const user = await newUser();
    const app = await registerApp(user.client, { confidential_client: true });
    const wrong = await tokenRequest({
      grant_type: 'authorization_code', code: await codeFor(user, app), redirect_uri: app.redirect_uris[0], client_id: app.client_id, client_secret: 'gto_wrong',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_client');

    const viaJson = await tokenRequest({
      grant_type: 'authorization_code', code: await codeFor(user, app), redirect_uri: app.redirect_uris[0], client_id: app.client_id, client_secret: app.client_secret,
    }, { json: true });
    expect(viaJson.status).toBe(200);

    const viaBasic = await tokenRequest(
      { grant_type: 'authorization_code', code: await codeFor(user, app), redirect_uri: app.redirect_uris[0] },
      { authorization: basicHeader(encodeURIComponent(app.client_id), encodeURIComponent(app.client_secret)) },
    );
    expect(viaBasic.status).toBe(200);
    expect((await anonymous.get('/user', bearer(viaBasic.body.access_token))).body.login).toBe(user.username);
  });

  test('asks for sign-in, and never redirects to a URI the application did not register', async () => {
    const user = await newUser();
    const app = await registerApp(user.client);
    const { challenge } = pkce();
    const params = { client_id: app.client_id, redirect_uri: app.redirect_uris[0], response_type: 'code', code_challenge: challenge, code_challenge_method: 'S256' };

    const anonymousTry = await authorize(params);
    expect(anonymousTry.status).toBe(401);
    expect(anonymousTry.headers.get('www-authenticate')).toMatch(/^Basic/);

    const wrongPassword = await authorize(params, basicHeader(user.username, 'not-the-password'));
    expect(wrongPassword.status).toBe(401);

    const elsewhere = await authorize({ ...params, redirect_uri: 'https://attacker.example/cb' }, basicHeader(user.username, user.password));
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.location).toBeNull();

    const unknownClient = await authorize({ ...params, client_id: 'no-such-client' }, basicHeader(user.username, user.password));
    expect(unknownClient.status).toBe(400);
    expect(unknownClient.location).toBeNull();
  });

  test('gives tokens only the API scopes the client asked for', async () => {
    const user = await newUser();
    const app = await registerApp(user.client);
    const { verifier, challenge } = pkce();
    const code = await codeFor(user, app, { code_challenge: challenge, code_challenge_method: 'S256', scope: 'read:user' });
    const tokens = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: app.redirect_uris[0], client_id: app.client_id, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    expect((await anonymous.get('/user/applications/oauth2', bearer(tokens.body.access_token))).status).toBe(200);
    expect((await anonymous.request('POST', '/user/applications/oauth2', {
      body: { name: 'x', redirect_uris: ['https://x.example/cb'] }, headers: bearer(tokens.body.access_token),
    })).status).toBe(403);
  });
});
