// The repository area's site-wide switches, proven on a system booted with them on (one boot per file):
// `[repository] FORCE_PRIVATE` makes every new repository private and lets only site admins
// publish one; `[repository] DISABLE_HTTP_GIT` turns git over HTTP off, and
// /settings/repository says so.
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { Accounts } from '../support/accounts.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(60_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let admin: ApiClient;
let users: Accounts;
let home: string;

beforeAll(async () => {
  e2e = await bootE2e({ prefix: 'forced-user', env: { ANVIL__repository__FORCE_PRIVATE: 'true', ANVIL__repository__DISABLE_HTTP_GIT: 'true' }, gitHome: true });
  ({ system, anonymous, admin, users, home } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

describe('[repository] FORCE_PRIVATE', () => {
  test('every new repository is private, whatever the request says, in user and org accounts', async () => {
    const { username, client } = await users.newUser();
    const res = await client.post('/user/repos', { name: 'wanted-public', private: false });
    expect(res.status).toBe(201);
    expect(res.body.private).toBe(true);
    expect((await anonymous.get(`/repos/${username}/wanted-public`)).status).toBe(404);
    const byAdmin = await admin.post(`/admin/users/${username}/repos`, { name: 'given', private: false });
    expect(byAdmin.body.private).toBe(true);
  });

  test('only a site admin may make a repository public; anyone with admin rights may keep or make it private', async () => {
    const { username, client } = await users.newUser();
    expect((await client.post('/user/repos', { name: 'kept' })).status).toBe(201);
    const refused = await client.patch(`/repos/${username}/kept`, { private: false });
    expect([refused.status, refused.body.message]).toEqual([422, 'cannot change private repository to public']);
    expect((await client.get(`/repos/${username}/kept`)).body.private).toBe(true);
    // Saying what it already is changes nothing and is no error.
    expect((await client.patch(`/repos/${username}/kept`, { private: true, description: 'still hidden' })).body).toMatchObject({ private: true, description: 'still hidden' });

    const published = await admin.patch(`/repos/${username}/kept`, { private: false });
    expect([published.status, published.body.private]).toEqual([200, false]);
    expect((await anonymous.get(`/repos/${username}/kept`)).status).toBe(200);
    // A public repository stays public when an edit repeats it, and its owner may hide it.
    expect((await client.patch(`/repos/${username}/kept`, { private: false, description: 'public now' })).body.private).toBe(false);
    expect((await client.patch(`/repos/${username}/kept`, { private: true })).body.private).toBe(true);
  });
});

describe('[repository] DISABLE_HTTP_GIT', () => {
  test('/settings/repository reports it', async () => {
    const res = await anonymous.get('/settings/repository');
    expect(res.status).toBe(200);
    expect(res.body.http_git_disabled).toBe(true);
  });

  test('git over HTTP is refused with 403 and Gitea\'s message, even for the owner; the API still works', async () => {
    const { username, password, client } = await users.newUser();
    expect((await client.post('/user/repos', { name: 'api-only', auto_init: true })).status).toBe(201);
    const refs = await fetch(`${system.baseUrl}${username}/api-only.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
    });
    expect(refs.status).toBe(403);
    expect((await refs.text()).trim()).toBe('Interacting with repositories by HTTP protocol is not allowed');

    const dir = await mkdtemp(join(home, 'clone-'));
    const clone = await gitIn(home, ['clone', cloneUrl(system.baseUrl, `${username}/api-only.git`, username, password), 'c'], dir);
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toMatch(/403/);
    expect((await client.get(`/repos/${username}/api-only/branches`)).status).toBe(200);
  });
});
