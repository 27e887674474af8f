// What a migration may not reach with the defaults ([migrations] ALLOW_LOCALNETWORKS off):
// loopback, private, link-local and unspecified addresses, by IP or by a name resolving
// there, are refused before any connection is made; and with [mirror] ENABLED=false new
// mirrors are refused while plain migrations still work. Nothing is created by a refusal.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { Accounts, TestUser } from '../support/accounts.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import { gitIn } from '../support/git-cli.js';
import { startGitServer, type GitServer } from '../support/git-server.js';

jest.setTimeout(60_000);

let e2e: E2e;
let users: Accounts;
let server: GitServer;
let owner: TestUser;

beforeAll(async () => {
  e2e = await bootE2e({ prefix: 'guard-user', gitHome: true, env: { ANVIL__mirror__ENABLED: 'false' } });
  ({ users } = e2e);
  expect((await gitIn(e2e.home, ['init', '--bare', '--quiet', join(e2e.home, 'served', 'source.git')])).code).toBe(0);
  server = await startGitServer({ root: join(e2e.home, 'served') });
  owner = await users.newUser();
}, 180_000);

afterAll(async () => {
  await server?.close();
  await e2e?.close();
});

describe('the outbound guard on migrations', () => {
  const targets = () => [
    `${server.url}/source.git`,
    `http://localhost:${server.port}/source.git`,
    `http://[::1]:${server.port}/source.git`,
    `http://0.0.0.0:${server.port}/source.git`,
    `git://127.0.0.1:${server.port}/source.git`,
    'http://10.1.2.3/source.git',
    'http://192.168.0.10/source.git',
    'http://172.16.5.5/source.git',
    'http://169.254.169.254/latest/meta-data',
    `http://[::ffff:127.0.0.1]:${server.port}/source.git`,
  ];

  test('refuses loopback, private, link-local and unspecified targets with 422, and connects to none', async () => {
    for (const cloneAddr of targets()) {
      const name = users.unique('refused');
      const res = await owner.client.post('/repos/migrate', { clone_addr: cloneAddr, repo_name: name });
      expect({ cloneAddr, status: res.status }).toEqual({ cloneAddr, status: 422 });
      expect(res.body.message).toMatch(/disallowed hosts/);
      expect((await owner.client.get(`/repos/${owner.username}/${name}`)).status).toBe(404);
    }
    expect(server.requests).toEqual([]);
  });
});

describe('with [mirror] ENABLED=false', () => {
  test('reports mirrors_disabled in the repository settings', async () => {
    const res = await owner.client.get('/settings/repository');
    expect(res.body).toMatchObject({ mirrors_disabled: true });
  });

  test('refuses a new mirror with 403 and creates nothing', async () => {
    const name = users.unique('no-mirror');
    const res = await owner.client.post('/repos/migrate', { clone_addr: 'https://example.com/some/repo.git', repo_name: name, mirror: true });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/disabled the creation of new pull mirrors/);
    expect((await owner.client.get(`/repos/${owner.username}/${name}`)).status).toBe(404);
  });
});
