// Migrating repositories from another git server (POST /repos/migrate), against a real
// `git http-backend` on loopback with [migrations] ALLOW_LOCALNETWORKS on (and `localhost`
// in BLOCKED_DOMAINS): the git data
// arrives with its branches, tags and default branch; credentials are used but never
// stored, shown or logged; the repository is visible, empty, while its clone runs, and its
// progress is logged; and a refusal or a failed clone leaves no repository behind.
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
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
let storageRoot: string;
let owner: TestUser;
const secret = 's3cret-pa55';
/** Every line the deployables printed. */
const output: string[] = [];

async function git(args: string[], cwd = home) {
  const result = await gitIn(home, args, cwd);
  expect(result).toMatchObject({ code: 0 });
  return result.stdout.trim();
}

/** A bare repository `<name>.git` on the git server: branches trunk and feature, tag v1, HEAD trunk. */
async function sourceRepository(name: string, bytes = 0): Promise<{ trunk: string }> {
  const bare = join(home, 'served', `${name}.git`);
  await git(['init', '--bare', '--quiet', bare]);
  const work = await mkdtemp(join(home, 'work-'));
  await git(['init', '--quiet', '-b', 'trunk', work]);
  await writeFile(join(work, 'README.md'), `# ${name}\n`);
  if (bytes) await writeFile(join(work, 'noise.bin'), randomBytes(bytes));
  await git(['add', '-A'], work);
  await git(['commit', '--quiet', '-m', 'first'], work);
  await git(['tag', 'v1'], work);
  await git(['branch', 'feature'], work);
  await git(['push', '--quiet', bare, 'trunk', 'feature', 'v1'], work);
  await git(['symbolic-ref', 'HEAD', 'refs/heads/trunk'], bare);
  return { trunk: await git(['rev-parse', 'HEAD'], work) };
}

beforeAll(async () => {
  e2e = await bootE2e({ prefix: 'migrate-user', gitHome: true, env: { ANVIL__migrations__ALLOW_LOCALNETWORKS: 'true', ANVIL__migrations__BLOCKED_DOMAINS: 'localhost' }, onOutput: (text) => output.push(text) });
  ({ users, home } = e2e);
  storageRoot = join(e2e.system.env.ANVIL_DATA_DIR!, 'repositories');
  server = await startGitServer({ root: join(home, 'served'), credentials: { username: 'reader', password: secret } });
  owner = await users.newUser();
  await sourceRepository('source');
}, 180_000);

afterAll(async () => {
  await server?.close();
  await e2e?.close();
});

/** Nothing of owner/name on disk: neither at its name nor left in the staging area. */
async function expectNoGitData(login: string, name: string) {
  const ownerDir = await readdir(join(storageRoot, login.toLowerCase())).catch(() => [] as string[]);
  expect(ownerDir).not.toContain(`${name.toLowerCase()}.git`);
  expect(await readdir(join(storageRoot, '.staging')).catch(() => [] as string[])).toEqual([]);
}

describe('POST /repos/migrate', () => {
  test('migrates a repository with its branches, tags and default branch', async () => {
    const name = users.unique('imported');
    const res = await owner.client.post('/repos/migrate', { clone_addr: `${server.url}/source.git`, repo_name: name, description: 'from elsewhere' });
    expect(res.body.message).toBeUndefined();
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, full_name: `${owner.username}/${name}`, description: 'from elsewhere', default_branch: 'trunk', empty: false, mirror: false, original_url: `${server.url}/source.git` });
    const branches = await owner.client.get(`/repos/${owner.username}/${name}/branches`);
    expect(branches.body.map((b: { name: string }) => b.name).sort()).toEqual(['feature', 'trunk']);
    const tags = await owner.client.get(`/repos/${owner.username}/${name}/tags`);
    expect(tags.body.map((t: { name: string }) => t.name)).toEqual(['v1']);
  });

  test('uses the credentials given and neither stores nor shows them', async () => {
    const name = users.unique('private-src');
    const res = await owner.client.post('/repos/migrate', {
      clone_addr: `${server.url}/private/source.git`, auth_username: 'reader', auth_password: secret, repo_name: name,
    });
    expect(res.status).toBe(201);
    expect(JSON.stringify(res.body)).not.toContain(secret);
    expect(res.body.original_url).toBe(`${server.url}/private/source.git`);
    const config = await readFile(join(storageRoot, owner.username.toLowerCase(), `${name.toLowerCase()}.git`, 'config'), 'utf8');
    expect(config).not.toContain(secret);
    expect(server.requests.some((r) => r.path.startsWith('/private/') && r.authorized)).toBe(true);
  });

  test('takes credentials written in the clone address, and neither stores nor shows them', async () => {
    const name = users.unique('url-creds');
    const res = await owner.client.post('/repos/migrate', { clone_addr: server.url.replace('http://', `http://reader:${encodeURIComponent(secret)}@`) + '/private/source.git', repo_name: name });
    expect(res.status).toBe(201);
    expect(res.body.original_url).toBe(`${server.url}/private/source.git`);
    const config = await readFile(join(storageRoot, owner.username.toLowerCase(), `${name.toLowerCase()}.git`, 'config'), 'utf8');
    expect(config).not.toContain(secret);
    const failed = await owner.client.post('/repos/migrate', { clone_addr: server.url.replace('http://', 'http://reader:url-pa55%3Aword@') + '/private/source.git', repo_name: users.unique('url-bad') });
    expect(failed.status).toBe(422);
    expect(failed.body.message).not.toContain('url-pa55');
  });

  test('answers wrong credentials with 422, without echoing them, and creates nothing', async () => {
    const name = users.unique('bad-auth');
    const res = await owner.client.post('/repos/migrate', { clone_addr: `${server.url}/private/source.git`, auth_username: 'reader', auth_password: 'wrong-guess-123', repo_name: name });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/^Authentication failed/);
    expect(res.body.message).not.toContain('wrong-guess-123');
    expect((await owner.client.get(`/repos/${owner.username}/${name}`)).status).toBe(404);
    await expectNoGitData(owner.username, name);
  });

  test('shows the repository, empty, while its clone runs, logs the clone\'s progress, and answers 201 once it is in', async () => {
    await sourceRepository('slow', 256 * 1024);
    const name = users.unique('in-progress');
    const held = server.hold();
    const answer = owner.client.post('/repos/migrate', { clone_addr: `${server.url}/held/slow.git`, repo_name: name });
    await held.reached;
    const during = await owner.client.get(`/repos/${owner.username}/${name}`);
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({ name, empty: true, mirror: false, original_url: `${server.url}/held/slow.git` });
    // The name is taken while the clone runs.
    const second = await owner.client.post('/repos/migrate', { clone_addr: `${server.url}/source.git`, repo_name: name });
    // On a mismatch, what the services logged about this repository says why.
    const logged = second.status === 409 ? [] : output.join('').split('\n').filter((line) => line.includes(name));
    expect({ status: second.status, message: second.body.message, logged }).toEqual({ status: 409, message: 'The repository with the same name already exists.', logged: [] });
    held.release();
    const res = await answer;
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name, empty: false, default_branch: 'trunk' });
    expect(output.join('').split('\n').some((line) => line.includes('fetching from remote') && line.includes(`${owner.username}/${name}`))).toBe(true);
  });

  test('removes the repository it showed when the source dies mid-clone', async () => {
    await sourceRepository('doomed', 256 * 1024);
    const name = users.unique('doomed');
    const held = server.hold();
    const answer = owner.client.post('/repos/migrate', { clone_addr: `${server.url}/held/doomed.git`, repo_name: name });
    await held.reached;
    expect((await owner.client.get(`/repos/${owner.username}/${name}`)).status).toBe(200);
    held.cut();
    const res = await answer;
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/^Migration failed/);
    expect((await owner.client.get(`/repos/${owner.username}/${name}`)).status).toBe(404);
    expect((await owner.client.get(`/repos/search?q=${name}`)).body.data).toEqual([]);
    await expectNoGitData(owner.username, name);
  });

  test('never logs the credentials of a clone address', async () => {
    // Both the given credentials and the wrong guess went through the migrations above.
    const printed = output.join('');
    expect(printed).toContain('migration started');
    expect(printed).not.toContain(secret);
    expect(printed).not.toContain('wrong-guess-123');
    expect(printed).not.toContain(encodeURIComponent('url-pa55:word'));
    expect(printed).not.toContain('url-pa55');
  });

  test('leaves nothing behind when the source dies mid-clone', async () => {
    await sourceRepository('big', 256 * 1024);
    const name = users.unique('cut-off');
    const res = await owner.client.post('/repos/migrate', { clone_addr: `${server.url}/dies/big.git`, repo_name: name });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/^Migration failed/);
    expect((await owner.client.get(`/repos/${owner.username}/${name}`)).status).toBe(404);
    await expectNoGitData(owner.username, name);
  });

  test('refuses a redirect, even to an allowed host, and creates nothing', async () => {
    const redirecting = await startGitServer({ root: join(home, 'served'), redirectTo: server.url });
    try {
      const name = users.unique('redirected');
      const seen = server.requests.length;
      const res = await owner.client.post('/repos/migrate', { clone_addr: `${redirecting.url}/redirect/source.git`, repo_name: name });
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(/^Migration failed/);
      expect(server.requests.length).toBe(seen); // git never followed the redirect
      expect((await owner.client.get(`/repos/${owner.username}/${name}`)).status).toBe(404);
    } finally {
      await redirecting.close();
    }
  });

  test('refuses a host in [migrations] BLOCKED_DOMAINS with 422, though local networks are allowed, and connects to it not', async () => {
    const name = users.unique('blocked');
    const seen = server.requests.length;
    const res = await owner.client.post('/repos/migrate', { clone_addr: `http://localhost:${server.port}/source.git`, repo_name: name });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/disallowed hosts/);
    expect(server.requests.length).toBe(seen);
    expect((await owner.client.get(`/repos/${owner.username}/${name}`)).status).toBe(404);
  });

  test('answers 409 for a name the owner already has', async () => {
    const name = users.unique('taken');
    expect((await owner.client.post('/user/repos', { name })).status).toBe(201);
    const res = await owner.client.post('/repos/migrate', { clone_addr: `${server.url}/source.git`, repo_name: name });
    expect(res.status).toBe(409);
  });

  test('refuses migrating into another user\'s account with 403', async () => {
    const other = await users.newUser();
    const res = await owner.client.post('/repos/migrate', { clone_addr: `${server.url}/source.git`, repo_name: users.unique('theirs'), repo_owner: other.username });
    expect(res.status).toBe(403);
  });

  test('lets an organization owner migrate into it, and refuses others with 403', async () => {
    const orgOwner = await users.newUser();
    const org = users.unique('migrate-org');
    expect((await orgOwner.client.post('/orgs', { username: org })).status).toBe(201);
    // The repository service learns of the new organization from identity's events.
    await users.eventually(() => orgOwner.client.get(`/orgs/${org}/repos`), 200);
    const refused = await owner.client.post('/repos/migrate', { clone_addr: `${server.url}/source.git`, repo_name: users.unique('into-org'), repo_owner: org });
    expect(refused.status).toBe(403);
    const name = users.unique('into-org');
    const res = await orgOwner.client.post('/repos/migrate', { clone_addr: `${server.url}/source.git`, repo_name: name, repo_owner: org });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ full_name: `${org}/${name}` });
  });

  test('lets a site admin migrate into any account', async () => {
    const name = users.unique('by-admin');
    const res = await e2e.admin.post('/repos/migrate', { clone_addr: `${server.url}/source.git`, repo_name: name, repo_owner: owner.username, private: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ private: true, owner: { login: owner.username } });
  });

  test.each([
    ['ssh://git@127.0.0.1/source.git'],
    ['file:///etc'],
    ['ext::sh -c touch% /tmp/pwned'],
    ['not a url'],
  ])('refuses the clone address %s with 422', async (cloneAddr) => {
    const res = await owner.client.post('/repos/migrate', { clone_addr: cloneAddr, repo_name: users.unique('scheme') });
    expect(res.status).toBe(422);
  });

  test('refuses local paths to anyone but a site admin under the allowed import root', async () => {
    const asUser = await owner.client.post('/repos/migrate', { clone_addr: join(home, 'served', 'source.git'), repo_name: users.unique('local') });
    expect(asUser.status).toBe(422);
    expect(asUser.body.message).toBe('You are not allowed to import local repositories.');
    // No root is configured here, so even the admin is refused.
    const asAdmin = await e2e.admin.post('/repos/migrate', { clone_addr: join(home, 'served', 'source.git'), repo_name: users.unique('local'), repo_owner: owner.username });
    expect(asAdmin.status).toBe(422);
  });

  test('answers 422 for issues, labels and the rest, which are not migrated yet', async () => {
    const name = users.unique('extras');
    const res = await owner.client.post('/repos/migrate', { clone_addr: `${server.url}/source.git`, repo_name: name, service: 'gitea', issues: true, labels: true });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/not supported yet/);
    expect((await owner.client.get(`/repos/${owner.username}/${name}`)).status).toBe(404);
  });

  test('requires a signed-in caller', async () => {
    const res = await e2e.anonymous.post('/repos/migrate', { clone_addr: `${server.url}/source.git`, repo_name: 'anon' });
    expect(res.status).toBe(401);
  });
});
