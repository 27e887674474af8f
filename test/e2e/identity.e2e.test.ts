// Identity's first slice as a Gitea client sees it: the bootstrapped admin manages users,
// people sign in with passwords or tokens, tokens carry scopes, and profiles and e-mail
// addresses show only what the caller may see. One booted system for the whole file.
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { Accounts } from '../support/accounts.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(60_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let admin: ApiClient;
let users: Accounts;

beforeAll(async () => {
  // Two settings away from their defaults, to see /settings answer from configuration.
  e2e = await bootE2e({ prefix: 'user', env: { ANVIL__mirror__ENABLED: 'false', ANVIL__ui__REACTIONS: '+1,heart,rocket' } });
  ({ system, anonymous, admin, users } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

const newUser = (fields: Record<string, unknown> = {}) => users.newUser(fields, { repositoryKnows: false });

async function newToken(username: string, password: string, scopes: string[], name = `tok-${Math.random().toString(36).slice(2)}`) {
  const res = await anonymous.as({ basic: [username, password] }).post(`/users/${username}/tokens`, { name, scopes });
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; sha1: string; token_last_eight: string; scopes: string[] };
}

describe('the site admin', () => {
  test('is created at start from ANVIL_ADMIN_* and can sign in with the password', async () => {
    const me = await admin.get('/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ login: system.admin.username, email: system.admin.email, is_admin: true });
  });

  test('creates a user who can then sign in, and sees them in the admin list with a total count', async () => {
    const { username, client, user } = await newUser({ full_name: 'Ada Lovelace' });
    expect(user).toMatchObject({ login: username, full_name: 'Ada Lovelace', email: `${username}@example.com`, is_admin: false });

    const me = await client.get('/user');
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(user.id);

    const list = await admin.get('/admin/users?limit=50');
    expect(list.status).toBe(200);
    expect(list.body.map((u: { login: string }) => u.login)).toContain(username);
    expect(Number(list.headers.get('x-total-count'))).toBeGreaterThanOrEqual(2);
  });

  test('cannot create a second user with a taken name or e-mail (422, nothing created)', async () => {
    const { username } = await newUser();
    const sameName = await admin.post('/admin/users', { username, email: 'other@example.com', password: 'long-enough-pw', must_change_password: false });
    expect(sameName.status).toBe(422);
    expect(sameName.body.message).toMatch(/already exists/);

    const sameEmail = await admin.post('/admin/users', { username: `${username}x`, email: `${username}@example.com`, password: 'long-enough-pw', must_change_password: false });
    expect(sameEmail.status).toBe(422);
    expect((await anonymous.get(`/users/${username}x`)).status).toBe(404);
  });

  test('edits a user the way tea sends it (source_id 0, login_name) and makes them admin', async () => {
    const { username, client } = await newUser();
    const res = await admin.patch(`/admin/users/${username}`, { source_id: 0, login_name: username, full_name: 'Renamed Person', admin: true, location: 'Basel' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ full_name: 'Renamed Person', is_admin: true, location: 'Basel' });
    expect((await client.get('/admin/users')).status).toBe(200);
  });

  test('deletes a user: their profile is gone and their password no longer signs in', async () => {
    const { username, client } = await newUser();
    expect((await admin.delete(`/admin/users/${username}`)).status).toBe(204);
    expect((await anonymous.get(`/users/${username}`)).status).toBe(404);
    expect((await client.get('/user')).status).toBe(401);
    expect((await admin.delete(`/admin/users/${username}`)).status).toBe(404);
  });

  test('is the only one who may use /admin: a normal user gets 403', async () => {
    const { client } = await newUser();
    const res = await client.get('/admin/users');
    expect(res.status).toBe(403);
  });

  test('may act as another user with the Sudo header', async () => {
    const { username } = await newUser();
    const res = await admin.get('/user', { sudo: username });
    expect(res.status).toBe(200);
    expect(res.body.login).toBe(username);
  });
});

describe('signing in', () => {
  test('wrong password or unknown user is 401, and so is an unknown token', async () => {
    const { username } = await newUser();
    expect((await anonymous.as({ basic: [username, 'not-the-password'] }).get('/user')).status).toBe(401);
    expect((await anonymous.as({ basic: ['nobody-here', 'whatever-pw'] }).get('/user')).status).toBe(401);
    expect((await anonymous.as({ token: 'f'.repeat(40) }).get('/user')).status).toBe(401);
  });

  test('/user without credentials is 401', async () => {
    expect((await anonymous.get('/user')).status).toBe(401);
  });

  test('a token works in every form Gitea accepts: token, Bearer, Basic, ?token= and ?access_token=', async () => {
    const { username, password } = await newUser();
    const { sha1 } = await newToken(username, password, ['read:user']);
    const forms = [
      anonymous.get('/user', { authorization: `token ${sha1}` }),
      anonymous.get('/user', { authorization: `Bearer ${sha1}` }),
      anonymous.as({ basic: [sha1, 'x-oauth-basic'] }).get('/user'),
      anonymous.get(`/user?token=${sha1}`),
      anonymous.get(`/user?access_token=${sha1}`),
    ];
    for (const res of await Promise.all(forms)) {
      expect(res.status).toBe(200);
      expect(res.body.login).toBe(username);
    }
  });
});

describe('access tokens', () => {
  test('are created with Basic auth only, shown once, then listed without the secret', async () => {
    const { username, password } = await newUser();
    const token = await newToken(username, password, ['read:user', 'write:repository'], 'ci');
    expect(token.sha1).toMatch(/^[0-9a-f]{40}$/);
    expect(token.token_last_eight).toBe(token.sha1.slice(-8));
    expect(token.scopes.sort()).toEqual(['read:user', 'write:repository']);

    const list = await anonymous.as({ basic: [username, password] }).get(`/users/${username}/tokens`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual([expect.objectContaining({ id: token.id, name: 'ci', sha1: '', token_last_eight: token.token_last_eight })]);

    // A token cannot mint tokens: Gitea requires the password.
    const withToken = await anonymous.as({ token: token.sha1 }).post(`/users/${username}/tokens`, { name: 'second', scopes: ['all'] });
    expect(withToken.status).toBe(401);
  });

  test('refuse a name the user already used with 400, and an unknown scope with 400', async () => {
    const { username, password } = await newUser();
    const basic = anonymous.as({ basic: [username, password] });
    await newToken(username, password, ['read:user'], 'deploy');
    const duplicate = await basic.post(`/users/${username}/tokens`, { name: 'deploy', scopes: ['read:user'] });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.message).toBe('access token name has been used already');

    const badScope = await basic.post(`/users/${username}/tokens`, { name: 'other', scopes: ['read:everything'] });
    expect(badScope.status).toBe(400);
    const list = await basic.get(`/users/${username}/tokens`);
    expect(list.body.map((t: { name: string }) => t.name)).toEqual(['deploy']);
  });

  test('once deleted, stop working on the very next request', async () => {
    const { username, password } = await newUser();
    const token = await newToken(username, password, ['read:user']);
    const client = anonymous.as({ token: token.sha1 });
    expect((await client.get('/user')).status).toBe(200);
    const del = await anonymous.as({ basic: [username, password] }).delete(`/users/${username}/tokens/${token.id}`);
    expect(del.status).toBe(204);
    expect((await client.get('/user')).status).toBe(401);
  });

  test("cannot be listed or created for somebody else (403)", async () => {
    const alice = await newUser();
    const bob = await newUser();
    expect((await alice.client.get(`/users/${bob.username}/tokens`)).status).toBe(403);
    expect((await alice.client.post(`/users/${bob.username}/tokens`, { name: 'x', scopes: ['all'] })).status).toBe(403);
  });

  test('with read scope only cannot write: adding an e-mail is 403, reading works', async () => {
    const { username, password } = await newUser();
    const { sha1 } = await newToken(username, password, ['read:user']);
    const client = anonymous.as({ token: sha1 });
    expect((await client.get('/user/emails')).status).toBe(200);
    const write = await client.post('/user/emails', { emails: ['extra@example.com'] });
    expect(write.status).toBe(403);
    expect(write.body.message).toMatch(/required scope/);
  });

  test('without the admin scope cannot use admin routes even for a site admin', async () => {
    const { sha1 } = await newToken(system.admin.username, system.admin.password, ['read:user']);
    expect((await anonymous.as({ token: sha1 }).get('/admin/users')).status).toBe(403);
  });
});

describe('profiles and search', () => {
  test('a profile is public, but an anonymous caller sees a placeholder instead of the e-mail', async () => {
    const { username } = await newUser({ full_name: 'Grace Hopper' });
    const seenAnonymously = await anonymous.get(`/users/${username}`);
    expect(seenAnonymously.status).toBe(200);
    // As Gitea: `<login>@noreply.<domain>` (services/convert/user.go).
    expect(seenAnonymously.body).toMatchObject({ login: username, full_name: 'Grace Hopper', email: `${username}@noreply.127.0.0.1` });
    const seenByAdmin = await admin.get(`/users/${username}`);
    expect(seenByAdmin.body.email).toBe(`${username}@example.com`);
  });

  test('search finds users by login or full name, includes the full name, and hides e-mail from anonymous callers', async () => {
    const { username } = await newUser({ full_name: 'Findable Fernanda' });
    const res = await anonymous.get('/users/search?q=fernanda');
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    const hit = res.body.data.find((u: { login: string }) => u.login === username);
    expect(hit).toMatchObject({ full_name: 'Findable Fernanda', email: `${username}@noreply.127.0.0.1` });
    expect(res.headers.get('x-total-count')).toBe(String(res.body.data.length));

    const signed = await admin.get(`/users/search?q=${username}`);
    expect(signed.body.data[0]).toMatchObject({ login: username, email: `${username}@example.com` });
  });

  test('lists are paged with Link and X-Total-Count exposed to browsers', async () => {
    await newUser();
    await newUser();
    const res = await admin.get('/admin/users?limit=1&page=1');
    expect(res.body).toHaveLength(1);
    expect(Number(res.headers.get('x-total-count'))).toBeGreaterThanOrEqual(3);
    expect(res.headers.get('link')).toContain('rel="next"');
    expect(res.headers.get('access-control-expose-headers')).toMatch(/X-Total-Count/i);
  });

  test('an unknown user is 404', async () => {
    expect((await anonymous.get('/users/no-such-user-here')).status).toBe(404);
  });
});

describe('e-mail addresses', () => {
  test('a user lists, adds and deletes their addresses; the primary one stays', async () => {
    const { username, client } = await newUser();
    const added = await client.post('/user/emails', { emails: [`${username}+work@example.com`] });
    expect(added.status).toBe(201);
    expect(added.body.map((e: { email: string }) => e.email)).toContain(`${username}+work@example.com`);

    const list = await client.get('/user/emails');
    expect(list.body).toEqual(expect.arrayContaining([
      expect.objectContaining({ email: `${username}@example.com`, primary: true }),
      expect.objectContaining({ email: `${username}+work@example.com`, primary: false }),
    ]));

    expect((await client.delete('/user/emails', { emails: [`${username}+work@example.com`] })).status).toBe(204);
    const after = await client.get('/user/emails');
    expect(after.body.map((e: { email: string }) => e.email)).toEqual([`${username}@example.com`]);
  });

  test("cannot take an address somebody else already uses (422)", async () => {
    const alice = await newUser();
    const bob = await newUser();
    const res = await bob.client.post('/user/emails', { emails: [`${alice.username}@example.com`] });
    expect(res.status).toBe(422);
  });
});

describe('bad input', () => {
  test('malformed JSON is a 422 in Gitea\'s shape and creates nothing', async () => {
    const res = await admin.request('POST', '/admin/users', { rawBody: '{"username": "half', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual(expect.objectContaining({ message: expect.any(String), url: expect.any(String) }));
    expect((await anonymous.get('/users/half')).status).toBe(404);
  });

  test('wrong types and missing required fields are 422 naming the field', async () => {
    const wrongType = await admin.post('/admin/users', { username: 42, email: 'x@example.com', password: 'long-enough-pw' });
    expect(wrongType.status).toBe(422);
    const missing = await admin.post('/admin/users', { email: 'y@example.com', password: 'long-enough-pw' });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toMatch(/username/i);
  });

  test('a username with path characters is refused and never reaches storage', async () => {
    for (const username of ['../etc', 'a/b', '.hidden', 'with space']) {
      const res = await admin.post('/admin/users', { username, email: `${users.unique('p')}@example.com`, password: 'long-enough-pw', must_change_password: false });
      expect(res.status).toBe(422);
    }
    expect((await anonymous.get('/users/..%2Fetc')).status).toBe(404);
  });

  test('an oversized body is a clean 413', async () => {
    const res = await admin.request('POST', '/admin/users', {
      rawBody: JSON.stringify({ username: 'big', email: 'big@example.com', password: 'x'.repeat(33 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expect((await anonymous.get('/users/big')).status).toBe(404);
  });

  test('a password shorter than the configured minimum is 400', async () => {
    const res = await admin.post('/admin/users', { username: 'shortpw', email: 'shortpw@example.com', password: 'abc', must_change_password: false });
    expect(res.status).toBe(400);
  });
});

describe('site information', () => {
  test('version, and the api, ui, repository and attachment settings, come from configuration', async () => {
    const version = await anonymous.get('/version');
    expect(version.body.version).toMatch(/^1\.27\.1\+anvil/);

    const api = await anonymous.get('/settings/api');
    expect(api.body).toMatchObject({ default_paging_num: 30, max_response_items: 50 });
    const ui = await anonymous.get('/settings/ui');
    expect(ui.body.allowed_reactions).toEqual(['+1', 'heart', 'rocket']);
    const repo = await anonymous.get('/settings/repository');
    expect(repo.body).toMatchObject({ mirrors_disabled: true, http_git_disabled: false, time_tracking_disabled: false, max_creation_limit: -1 });
    const attachment = await anonymous.get('/settings/attachment');
    expect(attachment.body.enabled).toBe(true);
  });

  test('/api/healthz passes while every service is up', async () => {
    const res = await fetch(`${system.baseUrl}api/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'pass' });
  });

  test('no process crashed during the run', () => {
    expect(system.crashes).toEqual([]);
  });
});
