// Pull mirrors (POST /repos/migrate with mirror, POST /repos/{o}/{r}/mirror-sync) against a
// real `git http-backend` on loopback: the repository JSON reports the mirror, a requested
// sync brings the source's new commits and publishes them as a push, and only writers may
// ask for a sync. Push mirrors: an admin adds a remote, pushes to it on request, and
// removes it; its credentials never come back.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { Accounts, TestUser } from '../support/accounts.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import { gitIn } from '../support/git-cli.js';
import { startGitServer, type GitServer } from '../support/git-server.js';

jest.setTimeout(60_000);

let e2e: E2e;
let users: Accounts;
let home: string;
let server: GitServer;
let owner: TestUser;
let work: string;
let bare: string;

async function git(args: string[], cwd = home) {
  const result = await gitIn(home, args, cwd);
  expect(result).toMatchObject({ code: 0 });
  return result.stdout.trim();
}

async function commitToSource(file: string): Promise<string> {
  await writeFile(join(work, file), `${file}\n`);
  await git(['add', '-A'], work);
  await git(['commit', '--quiet', '-m', `add ${file}`], work);
  await git(['push', '--quiet', bare, 'main'], work);
  return git(['rev-parse', 'HEAD'], work);
}

beforeAll(async () => {
  e2e = await bootE2e({ prefix: 'mirror-user', gitHome: true, events: 'repository', env: { ANVIL__migrations__ALLOW_LOCALNETWORKS: 'true' } });
  ({ users, home } = e2e);
  bare = join(home, 'served', 'upstream.git');
  await git(['init', '--bare', '--quiet', bare]);
  work = await mkdtemp(join(home, 'work-'));
  await git(['init', '--quiet', work]);
  await commitToSource('first.txt');
  server = await startGitServer({ root: join(home, 'served'), credentials: { username: 'pusher', password: 'push-pa55word' } });
  owner = await users.newUser();
}, 180_000);

afterAll(async () => {
  await server?.close();
  await e2e?.close();
});

describe('pull mirrors', () => {
  let name: string;

  beforeAll(async () => {
    name = users.unique('mirror');
    const res = await owner.client.post('/repos/migrate', { clone_addr: `${server.url}/upstream.git`, repo_name: name, mirror: true, mirror_interval: '10m' });
    expect(res.body.message).toBeUndefined();
    expect(res.status).toBe(201);
  });

  test('reports the mirror, its interval, last update and source in the repository JSON', async () => {
    const res = await owner.client.get(`/repos/${owner.username}/${name}`);
    expect(res.body).toMatchObject({ mirror: true, mirror_interval: '10m0s', original_url: `${server.url}/upstream.git` });
    expect(Date.parse(res.body.mirror_updated)).not.toBeNaN();
  });

  test('syncs on request and publishes the new commits as a push', async () => {
    const sha = await commitToSource('second.txt');
    const sync = await owner.client.post(`/repos/${owner.username}/${name}/mirror-sync`);
    expect(sync.status).toBe(200);
    const push = await e2e.recorder.eventMatching((e) => e.subject === 'repository.push' && e.payload.after === sha);
    expect(push.payload).toMatchObject({ ref: 'refs/heads/main', pusher: { login: owner.username } });
    const branch = await owner.client.get(`/repos/${owner.username}/${name}/branches/main`);
    expect(branch.body.commit.id).toBe(sha);
  });

  test('lets only writers ask for a sync', async () => {
    const reader = await users.newUser();
    expect((await reader.client.post(`/repos/${owner.username}/${name}/mirror-sync`)).status).toBe(403);
  });

  test('refuses an interval below [mirror] MIN_INTERVAL with 422 and creates nothing', async () => {
    const short = users.unique('too-often');
    const res = await owner.client.post('/repos/migrate', { clone_addr: `${server.url}/upstream.git`, repo_name: short, mirror: true, mirror_interval: '1m' });
    expect(res.status).toBe(422);
    expect((await owner.client.get(`/repos/${owner.username}/${short}`)).status).toBe(404);
  });

  test('reports a plain repository as no mirror', async () => {
    const plain = users.unique('plain');
    expect((await owner.client.post('/user/repos', { name: plain })).status).toBe(201);
    const res = await owner.client.get(`/repos/${owner.username}/${plain}`);
    expect(res.body).toMatchObject({ mirror: false, original_url: '' });
  });
});

describe('push mirrors', () => {
  let name: string;
  let target: string;

  beforeAll(async () => {
    name = users.unique('pushed-from');
    expect((await owner.client.post('/user/repos', { name, auto_init: true })).status).toBe(201);
    target = join(home, 'served', 'target.git');
    await git(['init', '--bare', '--quiet', target]);
    await git(['config', 'http.receivepack', 'true'], target);
  });

  test('adds a push mirror, pushes to it on request, and removes it', async () => {
    const added = await owner.client.post(`/repos/${owner.username}/${name}/push_mirrors`, {
      remote_address: `${server.url}/private/target.git`, remote_username: 'pusher', remote_password: 'push-pa55word', interval: '10m',
    });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ repo_name: name, remote_address: `${server.url}/private/target.git`, interval: '10m0s' });
    expect(JSON.stringify(added.body)).not.toContain('push-pa55word');
    const remote = added.body.remote_name as string;

    const list = await owner.client.get(`/repos/${owner.username}/${name}/push_mirrors`);
    expect(list.body.map((m: { remote_name: string }) => m.remote_name)).toEqual([remote]);
    expect((await owner.client.get(`/repos/${owner.username}/${name}/push_mirrors/${remote}`)).body).toMatchObject({ remote_name: remote });

    const sync = await owner.client.post(`/repos/${owner.username}/${name}/push_mirrors-sync`);
    expect(sync.body?.message).toBeUndefined();
    expect(sync.status).toBe(200);
    const branch = await owner.client.get(`/repos/${owner.username}/${name}/branches/main`);
    expect(await git(['rev-parse', 'refs/heads/main'], target)).toBe(branch.body.commit.id);

    expect((await owner.client.delete(`/repos/${owner.username}/${name}/push_mirrors/${remote}`)).status).toBe(204);
    expect((await owner.client.get(`/repos/${owner.username}/${name}/push_mirrors/${remote}`)).status).toBe(404);
  });

  test('pushes to a sync_on_commit push mirror after every push', async () => {
    const added = await owner.client.post(`/repos/${owner.username}/${name}/push_mirrors`, {
      remote_address: `${server.url}/private/target.git`, remote_username: 'pusher', remote_password: 'push-pa55word', interval: '0', sync_on_commit: true,
    });
    expect(added.status).toBe(200);
    const write = await owner.client.post(`/repos/${owner.username}/${name}/contents/after-push.txt`, { content: Buffer.from('hello\n').toString('base64'), message: 'add after-push' });
    expect(write.status).toBe(201);
    const sha = write.body.commit.sha as string;
    // Waits for the condition (the target has the commit), bounded by the test's timeout.
    for (;;) {
      const at = await gitIn(home, ['rev-parse', 'refs/heads/main'], target);
      if (at.stdout.trim() === sha) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const mirror = await owner.client.get(`/repos/${owner.username}/${name}/push_mirrors/${added.body.remote_name}`);
    expect(mirror.body).toMatchObject({ last_error: '', sync_on_commit: true });
  });

  test('lets only repository admins manage push mirrors', async () => {
    const other = await users.newUser();
    expect((await other.client.get(`/repos/${owner.username}/${name}/push_mirrors`)).status).toBe(403);
    expect((await other.client.post(`/repos/${owner.username}/${name}/push_mirrors`, { remote_address: `${server.url}/x.git` })).status).toBe(403);
  });
});
