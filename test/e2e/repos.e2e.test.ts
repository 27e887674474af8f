// Repositories owned by users, as a Gitea client sees them: create, read, list, search,
// edit and rename, delete, private repositories hidden from others, and collaborators.
// One booted system for the whole file.
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
  e2e = await bootE2e({ prefix: 'repo-user', env: { ANVIL__repository__MAX_CREATION_LIMIT: '5' } });
  ({ system, anonymous, admin, users } = e2e);
}, 180_000);

afterAll(() => e2e?.close());


describe('creating repositories', () => {
  test('creates a public repository with a README and answers Gitea\'s Repository JSON', async () => {
    const { username, client } = await users.newUser();
    const res = await client.post('/user/repos', { name: 'hello', description: 'A greeting', auto_init: true, readme: 'Default', default_branch: 'trunk' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'hello', full_name: `${username}/hello`, description: 'A greeting', private: false, empty: false,
      default_branch: 'trunk', owner: { login: username }, permissions: { admin: true, push: true, pull: true },
      clone_url: `${system.baseUrl}${username}/hello.git`, html_url: `${system.baseUrl}${username}/hello`,
    });
    expect(res.body.size).toBeGreaterThan(0);

    const got = await anonymous.get(`/repos/${username}/hello`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: res.body.id, permissions: { admin: false, push: false, pull: true } });
    const byId = await client.get(`/repositories/${res.body.id}`);
    expect(byId.body.full_name).toBe(`${username}/hello`);
  });

  test('an empty repository without auto_init is empty and uses the default branch setting', async () => {
    const { client } = await users.newUser();
    const res = await client.post('/user/repos', { name: 'blank' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ empty: true, default_branch: 'main', size: 0 });
  });

  test('refuses reserved names, the .git suffix and odd characters with 422, duplicates with 409', async () => {
    const { client } = await users.newUser();
    for (const name of ['..', 'foo.git', 'bad name', 'a/b', '-']) {
      const res = await client.post('/user/repos', { name });
      expect([name, res.status]).toEqual([name, 422]);
    }
    expect((await client.post('/user/repos', { name: 'twice' })).status).toBe(201);
    const again = await client.post('/user/repos', { name: 'TWICE' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('The repository with the same name already exists.');
  });

  test('stops at [repository] MAX_CREATION_LIMIT', async () => {
    const { client } = await users.newUser();
    for (let i = 0; i < 5; i += 1) expect((await client.post('/user/repos', { name: `r${i}` })).status).toBe(201);
    const res = await client.post('/user/repos', { name: 'one-too-many' });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('limit of repositories');
    // The limit is part of the site's repository settings.
    expect((await anonymous.get('/settings/repository')).body.max_creation_limit).toBe(5);
  });

  test('a site admin creates a repository for a user', async () => {
    const { username } = await users.newUser();
    const res = await admin.post(`/admin/users/${username}/repos`, { name: 'given', private: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ full_name: `${username}/given`, private: true, owner: { login: username } });
    expect((await admin.post('/admin/users/no-such-user-at-all/repos', { name: 'x' })).status).toBe(404);
  });

  test('two concurrent creates of one name: one 201, one 409', async () => {
    const { client } = await users.newUser();
    const results = await Promise.all([client.post('/user/repos', { name: 'race' }), client.post('/user/repos', { name: 'race' })]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });
});

describe('private repositories', () => {
  test('are invisible (404) to anonymous callers and other users, visible to the owner and site admins', async () => {
    const owner = await users.newUser();
    const other = await users.newUser();
    expect((await owner.client.post('/user/repos', { name: 'secret', private: true })).status).toBe(201);
    expect((await anonymous.get(`/repos/${owner.username}/secret`)).status).toBe(404);
    expect((await other.client.get(`/repos/${owner.username}/secret`)).status).toBe(404);
    expect((await owner.client.get(`/repos/${owner.username}/secret`)).body.private).toBe(true);
    expect((await admin.get(`/repos/${owner.username}/secret`)).body.permissions).toEqual({ admin: true, push: true, pull: true });
    const search = await other.client.get('/repos/search?q=secret');
    expect(search.body.data.map((r: { full_name: string }) => r.full_name)).not.toContain(`${owner.username}/secret`);
    expect((await other.client.patch(`/repos/${owner.username}/secret`, { description: 'mine now' })).status).toBe(404);
    expect((await other.client.delete(`/repos/${owner.username}/secret`)).status).toBe(404);
  });
});

describe('token scopes', () => {
  test('a public-only token sees its owner\'s public repositories; a private one is refused (403) and left out of lists', async () => {
    const { username, password, client } = await users.newUser();
    expect((await client.post('/user/repos', { name: 'shown' })).status).toBe(201);
    expect((await client.post('/user/repos', { name: 'kept', private: true })).status).toBe(201);
    const token = await client.post(`/users/${username}/tokens`, { name: 'public-only', scopes: ['public-only', 'read:repository', 'read:user'] });
    expect(token.status).toBe(201);
    const scoped = anonymous.as({ token: token.body.sha1 });
    expect((await scoped.get(`/repos/${username}/shown`)).status).toBe(200);
    const kept = await scoped.get(`/repos/${username}/kept`);
    expect([kept.status, kept.body.message]).toEqual([403, 'token scope is limited to public repos']);
    const mine = await scoped.get('/user/repos');
    expect(mine.body.map((r: { name: string }) => r.name)).toEqual(['shown']);
    // A token without the repository scope is refused.
    const userOnly = await anonymous.as({ basic: [username, password] }).post(`/users/${username}/tokens`, { name: 'user-only', scopes: ['read:user'] });
    expect((await anonymous.as({ token: userOnly.body.sha1 }).get(`/repos/${username}/shown`)).status).toBe(403);
  });
});

describe('owners who hide themselves', () => {
  test('a private user\'s public repositories are hidden from others, in reads and in search', async () => {
    const hermit = await users.newUser({ visibility: 'private' });
    const other = await users.newUser();
    expect((await hermit.client.post('/user/repos', { name: 'cave' })).status).toBe(201);
    expect((await hermit.client.get(`/repos/${hermit.username}/cave`)).status).toBe(200);
    expect((await other.client.get(`/repos/${hermit.username}/cave`)).status).toBe(404);
    expect((await anonymous.get(`/repos/${hermit.username}/cave`)).status).toBe(404);
    expect((await other.client.get(`/users/${hermit.username}/repos`)).status).toBe(404);
    expect((await hermit.client.get(`/users/${hermit.username}/repos`)).body.map((r: { name: string }) => r.name)).toEqual(['cave']);
    const search = await other.client.get(`/repos/search?q=cave&uid=${hermit.user.id}`);
    expect(search.body.data).toEqual([]);
    expect(search.headers.get('x-total-count')).toBe('0');
  });
});

describe('lists', () => {
  test('list a user\'s repositories by id, paginated with Link and X-Total-Count', async () => {
    const { username, client } = await users.newUser();
    for (const name of ['c-repo', 'a-repo', 'b-repo']) expect((await client.post('/user/repos', { name })).status).toBe(201);
    const page1 = await anonymous.get(`/users/${username}/repos?limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.map((r: { name: string }) => r.name)).toEqual(['c-repo', 'a-repo']);
    expect(page1.headers.get('x-total-count')).toBe('3');
    expect(page1.headers.get('link')).toContain('rel="next"');
    const page2 = await anonymous.get(`/users/${username}/repos?limit=2&page=2`);
    expect(page2.body.map((r: { name: string }) => r.name)).toEqual(['b-repo']);
    const mine = await client.get('/user/repos');
    expect(mine.body).toHaveLength(3);
  });

  test('search answers {ok, data} filtered by q, uid, is_private and sorted', async () => {
    const { user, client } = await users.newUser();
    expect((await client.post('/user/repos', { name: 'needle-one' })).status).toBe(201);
    expect((await client.post('/user/repos', { name: 'needle-two', private: true })).status).toBe(201);
    const byOwner = await client.get(`/repos/search?uid=${user.id}&q=needle`);
    expect(byOwner.body.ok).toBe(true);
    expect(byOwner.body.data.map((r: { name: string }) => r.name)).toEqual(['needle-one', 'needle-two']);
    const privateOnly = await client.get(`/repos/search?uid=${user.id}&is_private=true`);
    expect(privateOnly.body.data.map((r: { name: string }) => r.name)).toEqual(['needle-two']);
    const desc = await client.get(`/repos/search?uid=${user.id}&sort=alpha&order=desc`);
    expect(desc.body.data.map((r: { name: string }) => r.name)).toEqual(['needle-two', 'needle-one']);
    expect((await client.get('/repos/search?sort=sideways')).status).toBe(422);
    expect((await client.get('/repos/search?sort=alpha&order=upwards')).status).toBe(422);
    expect((await client.get(`/repos/search?uid=${user.id}&mode=fork`)).body.data).toEqual([]);
    const anon = await anonymous.get(`/repos/search?uid=${user.id}`);
    expect(anon.body.data.map((r: { name: string }) => r.name)).toEqual(['needle-one']);
    expect(anon.headers.get('x-total-count')).toBe('1');
  });
});

describe('editing and deleting', () => {
  test('renames a repository, edits its settings and archives it', async () => {
    const { username, client } = await users.newUser();
    expect((await client.post('/user/repos', { name: 'old-name', auto_init: true })).status).toBe(201);
    const res = await client.patch(`/repos/${username}/old-name`, {
      name: 'new-name', description: 'renamed', website: 'https://example.com', has_wiki: false, archived: true, private: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'new-name', description: 'renamed', website: 'https://example.com', has_wiki: false, archived: true, private: true });
    expect(res.body.archived_at).not.toBe('1970-01-01T00:00:00Z');
    expect((await client.get(`/repos/${username}/old-name`)).status).toBe(404);
    expect((await client.get(`/repos/${username}/new-name`)).status).toBe(200);
    const badBranch = await client.patch(`/repos/${username}/new-name`, { default_branch: 'no-such-branch' });
    expect(badBranch.status).toBe(404);
  });

  test('deletes a repository; its name can be used again', async () => {
    const { username, client } = await users.newUser();
    expect((await client.post('/user/repos', { name: 'doomed', auto_init: true })).status).toBe(201);
    expect((await client.delete(`/repos/${username}/doomed`)).status).toBe(204);
    expect((await client.get(`/repos/${username}/doomed`)).status).toBe(404);
    expect((await client.post('/user/repos', { name: 'doomed' })).status).toBe(201);
  });
});

describe('collaborators', () => {
  test('the owner grants and revokes access; collaborators see private repositories with their permission', async () => {
    const owner = await users.newUser();
    const friend = await users.newUser();
    const stranger = await users.newUser();
    expect((await owner.client.post('/user/repos', { name: 'shared', private: true })).status).toBe(201);
    const base = `/repos/${owner.username}/shared/collaborators`;

    expect((await owner.client.get(`${base}/${friend.username}`)).status).toBe(404);
    expect((await owner.client.put(`${base}/${friend.username}`, { permission: 'write' })).status).toBe(204);
    expect((await owner.client.get(`${base}/${friend.username}`)).status).toBe(204);

    const seen = await friend.client.get(`/repos/${owner.username}/shared`);
    expect(seen.status).toBe(200);
    expect(seen.body.permissions).toEqual({ admin: false, push: true, pull: true });
    const list = await friend.client.get(base);
    expect(list.body.map((u: { login: string }) => u.login)).toEqual([friend.username]);
    expect(list.headers.get('x-total-count')).toBe('1');
    const perm = await owner.client.get(`${base}/${friend.username}/permission`);
    expect(perm.body).toMatchObject({ permission: 'write', role_name: 'write', user: { login: friend.username } });
    const ownerPerm = await owner.client.get(`${base}/${owner.username}/permission`);
    expect(ownerPerm.body.permission).toBe('owner');
    const mine = await friend.client.get('/user/repos');
    expect(mine.body.map((r: { full_name: string }) => r.full_name)).toContain(`${owner.username}/shared`);

    // Only repository admins manage collaborators; strangers do not even see the repository.
    expect((await friend.client.put(`${base}/${stranger.username}`, { permission: 'read' })).status).toBe(403);
    expect((await stranger.client.get(base)).status).toBe(404);
    expect((await owner.client.put(`${base}/${stranger.username}`, { permission: 'owner' })).status).toBe(422);
    expect((await owner.client.put(`${base}/no-such-user-anywhere`, { permission: 'read' })).status).toBe(422);
    expect((await owner.client.get(`${base}/no-such-user-anywhere`)).status).toBe(422);
    expect((await owner.client.get(`${base}/no-such-user-anywhere/permission`)).status).toBe(404);

    expect((await owner.client.delete(`${base}/${friend.username}`)).status).toBe(204);
    expect((await friend.client.get(`/repos/${owner.username}/shared`)).status).toBe(404);
  });
});
