// Pull mirrors (POST /repos/migrate with mirror, POST /repos/{o}/{r}/mirror-sync) against a
// real `git http-backend` on loopback ([migrations] ALLOWED_DOMAINS = 127.0.0.1 only): the
// repository JSON reports the mirror, in lists and searches too; a requested sync brings the
// source's new commits and publishes them as a push; only writers may ask for a sync; a
// source's credentials stay sealed; and a pull mirror refuses every write but its syncs (git
// push, contents, branches, tags, merges). Push mirrors: an admin adds a remote, pushes to
// it on request, and removes it; its credentials never come back nor lie in clear.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import type { Accounts, TestUser } from '../support/accounts.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';
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

const repositoriesRoot = () => join(e2e.system.env.ANVIL_DATA_DIR!, 'repositories');

async function commitToSource(file: string): Promise<string> {
  await writeFile(join(work, file), `${file}\n`);
  await git(['add', '-A'], work);
  await git(['commit', '--quiet', '-m', `add ${file}`], work);
  await git(['push', '--quiet', bare, 'main'], work);
  return git(['rev-parse', 'HEAD'], work);
}

beforeAll(async () => {
  e2e = await bootE2e({ prefix: 'mirror-user', gitHome: true, events: 'repository', env: { ANVIL__migrations__ALLOW_LOCALNETWORKS: 'true', ANVIL__migrations__ALLOWED_DOMAINS: '127.0.0.1' } });
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
    // The branch rows the API reads are written before the push event commits: a consumer
    // reading the branch the instant the event arrives finds the synced commit.
    const branch = await owner.client.get(`/repos/${owner.username}/${name}/branches/main`);
    expect(branch.body.commit.id).toBe(sha);
  });

  test('syncs a source that needs credentials, keeping them sealed in the repository', async () => {
    const sealed = users.unique('sealed');
    const res = await owner.client.post('/repos/migrate', {
      clone_addr: `${server.url}/private/upstream.git`, auth_username: 'pusher', auth_password: 'push-pa55word', repo_name: sealed, mirror: true, mirror_interval: '10m',
    });
    expect(res.status).toBe(201);
    const sha = await commitToSource('sealed.txt');
    expect((await owner.client.post(`/repos/${owner.username}/${sealed}/mirror-sync`)).status).toBe(200);
    await e2e.recorder.eventMatching((e) => e.subject === 'repository.push' && e.payload.after === sha && e.payload.repository?.name === sealed);
    const config = await readFile(join(repositoriesRoot(), owner.username.toLowerCase(), `${sealed.toLowerCase()}.git`, 'config'), 'utf8');
    expect(config).toContain(`${server.url}/private/upstream.git`);
    expect(config).not.toContain('push-pa55word');
  });

  test('lets only writers ask for a sync', async () => {
    const reader = await users.newUser();
    expect((await reader.client.post(`/repos/${owner.username}/${name}/mirror-sync`)).status).toBe(403);
  });

  test('refuses a source outside [migrations] ALLOWED_DOMAINS with 422 and creates nothing', async () => {
    const outside = users.unique('not-allowed');
    const seen = server.requests.length;
    const res = await owner.client.post('/repos/migrate', { clone_addr: `http://localhost:${server.port}/upstream.git`, repo_name: outside, mirror: true });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/disallowed hosts/);
    expect(server.requests.length).toBe(seen);
    expect((await owner.client.get(`/repos/${owner.username}/${outside}`)).status).toBe(404);
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

describe('a pull mirror', () => {
  let name: string;
  let mirrorOwner: TestUser & { token: string };
  let main: string;

  beforeAll(async () => {
    // A second branch on the source, for a pull request inside the mirror.
    await git(['checkout', '--quiet', '-b', 'side'], work);
    await writeFile(join(work, 'side.txt'), 'side\n');
    await git(['add', '-A'], work);
    await git(['commit', '--quiet', '-m', 'side'], work);
    await git(['push', '--quiet', bare, 'side'], work);
    await git(['checkout', '--quiet', 'main'], work);
    mirrorOwner = await e2e.newWriter();
    name = users.unique('read-only');
    const res = await mirrorOwner.client.post('/repos/migrate', { clone_addr: `${server.url}/upstream.git`, repo_name: name, mirror: true, mirror_interval: '10m' });
    expect(res.status).toBe(201);
    main = (await mirrorOwner.client.get(`/repos/${mirrorOwner.username}/${name}/branches/main`)).body.commit.id;
  });

  test('is reported as a mirror in repository lists and searches', async () => {
    const mine = await mirrorOwner.client.get('/user/repos');
    expect(mine.body.find((r: { name: string }) => r.name === name)).toMatchObject({ mirror: true, mirror_interval: '10m0s', original_url: `${server.url}/upstream.git` });
    const found = await mirrorOwner.client.get(`/repos/search?q=${name}`);
    expect(found.body.data.find((r: { name: string }) => r.name === name)).toMatchObject({ mirror: true, mirror_interval: '10m0s' });
  });

  test('refuses a git push with 403 "mirror repository is read-only"', async () => {
    const dir = await mkdtemp(join(home, 'push-'));
    const url = cloneUrl(e2e.system.baseUrl, `${mirrorOwner.username}/${name}.git`, mirrorOwner.username, mirrorOwner.token);
    await git(['clone', '--quiet', url, 'c'], dir);
    await writeFile(join(dir, 'c', 'pushed.txt'), 'pushed\n');
    await git(['add', '-A'], join(dir, 'c'));
    await git(['commit', '--quiet', '-m', 'pushed'], join(dir, 'c'));
    const pushed = await gitIn(home, ['push', 'origin', 'HEAD:main'], join(dir, 'c'));
    expect(pushed.code).not.toBe(0);
    expect(pushed.stderr).toMatch(/mirror repository is read-only|403/);
    expect((await mirrorOwner.client.get(`/repos/${mirrorOwner.username}/${name}/branches/main`)).body.commit.id).toBe(main);
  });

  test('refuses contents, branch and tag writes with "Git Repository is a mirror."', async () => {
    const base = `/repos/${mirrorOwner.username}/${name}`;
    const attempts = [
      await mirrorOwner.client.post(`${base}/contents/new.txt`, { content: Buffer.from('x\n').toString('base64'), message: 'new' }),
      await mirrorOwner.client.post(`${base}/contents`, { files: [{ operation: 'create', path: 'many.txt', content: Buffer.from('x\n').toString('base64') }], message: 'many' }),
      await mirrorOwner.client.post(`${base}/branches`, { new_branch_name: 'made-here', old_branch_name: 'main' }),
      await mirrorOwner.client.delete(`${base}/branches/side`),
    ];
    for (const res of attempts) expect({ status: res.status, message: res.body?.message }).toEqual({ status: 403, message: 'Git Repository is a mirror.' });
    // The tag routes declare no 403: 405, as they answer what the repository does not allow.
    const tag = await mirrorOwner.client.post(`${base}/tags`, { tag_name: 'v-here', target: 'main' });
    expect({ status: tag.status, message: tag.body?.message }).toEqual({ status: 405, message: 'Git Repository is a mirror.' });
    const branches = await mirrorOwner.client.get(`${base}/branches`);
    expect(branches.body.map((b: { name: string }) => b.name).sort()).toEqual(['main', 'side']);
    expect((await mirrorOwner.client.get(`${base}/tags`)).body).toEqual([]);
    expect((await mirrorOwner.client.get(`${base}/branches/main`)).body.commit.id).toBe(main);
  });

  test('refuses merging a pull request inside it with 403', async () => {
    const base = `/repos/${mirrorOwner.username}/${name}`;
    const pull = await mirrorOwner.client.post(`${base}/pulls`, { head: 'side', base: 'main', title: 'side into main' });
    expect(pull.status).toBe(201);
    const merged = await mirrorOwner.client.post(`${base}/pulls/${pull.body.number}/merge`, { do: 'merge' });
    expect(merged.status).toBe(403);
    expect((await mirrorOwner.client.get(`${base}/branches/main`)).body.commit.id).toBe(main);
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
    const config = await readFile(join(repositoriesRoot(), owner.username.toLowerCase(), `${name.toLowerCase()}.git`, 'config'), 'utf8');
    expect(config).toContain(remote);
    expect(config).not.toContain('push-pa55word');

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
