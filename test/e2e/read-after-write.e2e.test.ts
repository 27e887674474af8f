// Reads right after writes, through the gateway: whatever caches the repository service
// keeps (long-lived cat-file processes, refs in the database), a push, a force push, a
// branch deletion, a contents write and the branch and tag APIs show in the very next read
// of contents, branches, tags and commits — also through a second gateway replica that
// remembered the repository as it was before the push (reads trust the gateway's resolved
// repository, but take the default branch and emptiness from the refs, fresh).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { deployableEntry } from '../../cli/src/processes.js';
import { waitUntil } from '../../cli/src/net.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import { freePorts, isListening } from '../support/free-port.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';

jest.setTimeout(120_000);

let e2e: E2e;
let home: string;
const git = (args: string[], cwd = home) => gitIn(home, args, cwd);
const text = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'raw-user', gitHome: true });
  ({ home } = e2e);
}, 180_000);

let replica: ChildProcess | undefined;

/** A second gateway on the same services: its own cache of resolved repositories. */
async function secondGateway(): Promise<string> {
  const [port] = await freePorts(1);
  const env: NodeJS.ProcessEnv = { ...e2e.system.env, ANVIL_HTTP_PORT: String(port) };
  delete env.ANVIL_METRICS_ADDR;
  replica = spawn(process.execPath, [deployableEntry('gateway')], { env, stdio: 'ignore' });
  await waitUntil('the second gateway to listen', () => isListening(port), { timeoutMs: 60_000, abort: () => (replica?.exitCode !== null ? 'it exited' : undefined) });
  return `http://127.0.0.1:${port}/`;
}

afterAll(async () => {
  if (replica && replica.exitCode === null && replica.signalCode === null) {
    const gone = new Promise((resolve) => replica!.once('exit', resolve));
    replica.kill('SIGTERM');
    await gone;
  }
  await e2e?.close();
});

type Writer = Awaited<ReturnType<E2e['newWriter']>>;

async function repoWithClone(owner: Writer, name: string) {
  expect((await owner.client.post('/user/repos', { name, auto_init: true })).status).toBe(201);
  const dir = await mkdtemp(join(home, `${name}-`));
  const url = cloneUrl(e2e.system.baseUrl, `${owner.username}/${name}.git`, owner.username, owner.token);
  expect(await git(['clone', '-q', url, 'work'], dir)).toMatchObject({ code: 0 });
  return { base: `/repos/${owner.username}/${name}`, work: join(dir, 'work') };
}

async function commitFirst(work: string): Promise<string> {
  await writeFile(join(work, 'README.md'), 'first\n');
  await git(['add', 'README.md'], work);
  await git(['commit', '-q', '-m', 'First'], work);
  return (await git(['rev-parse', 'HEAD'], work)).stdout.trim();
}

async function commitFile(work: string, content: string, message: string): Promise<string> {
  await writeFile(join(work, 'README.md'), content);
  await git(['commit', '-q', '-am', message], work);
  return (await git(['rev-parse', 'HEAD'], work)).stdout.trim();
}

describe('reading right after a write', () => {
  test('a push that moves a branch shows in the next contents read, branch list, branch and commit list', async () => {
    const owner = await e2e.newWriter();
    const { base, work } = await repoWithClone(owner, 'moving');
    // Read first, so anything the service keeps is warm before the push.
    const before = await owner.client.get(`${base}/contents/README.md`);
    expect(before.status).toBe(200);
    expect((await owner.client.get(`${base}/branches`)).status).toBe(200);
    expect((await owner.client.get(`${base}/commits?limit=1`)).status).toBe(200);

    const pushed = await commitFile(work, 'after the push\n', 'Second');
    expect(await git(['push', '-q', 'origin', 'HEAD:main'], work)).toMatchObject({ code: 0 });

    const contents = await owner.client.get(`${base}/contents/README.md`);
    expect(text(contents.body.content)).toBe('after the push\n');
    expect(contents.body.last_commit_sha).toBe(pushed);
    const branches = await owner.client.get(`${base}/branches`);
    expect(branches.body.map((b: { name: string; commit: { id: string } }) => [b.name, b.commit.id])).toEqual([['main', pushed]]);
    expect((await owner.client.get(`${base}/branches/main`)).body.commit.id).toBe(pushed);
    const commits = await owner.client.get(`${base}/commits?limit=1`);
    expect(commits.body[0].sha).toBe(pushed);
    expect((await owner.client.get(`${base}/git/commits/${pushed}`)).body.sha).toBe(pushed);
  });

  test('a force push back to an older commit and a deleted branch show in the next read', async () => {
    const owner = await e2e.newWriter();
    const { base, work } = await repoWithClone(owner, 'rewound');
    const first = (await git(['rev-parse', 'HEAD'], work)).stdout.trim();
    await commitFile(work, 'short-lived\n', 'Soon gone');
    expect(await git(['push', '-q', 'origin', 'HEAD:main', 'HEAD:refs/heads/side'], work)).toMatchObject({ code: 0 });
    expect((await owner.client.get(`${base}/branches`)).body).toHaveLength(2);

    await git(['reset', '-q', '--hard', first], work);
    expect(await git(['push', '-q', '--force', 'origin', 'HEAD:main', ':refs/heads/side'], work)).toMatchObject({ code: 0 });

    const branches = await owner.client.get(`${base}/branches`);
    expect(branches.body.map((b: { name: string; commit: { id: string } }) => [b.name, b.commit.id])).toEqual([['main', first]]);
    expect((await owner.client.get(`${base}/branches/side`)).status).toBe(404);
    expect((await owner.client.get(`${base}/commits?sha=side`)).status).toBe(404);
    expect((await owner.client.get(`${base}/commits?limit=1`)).body[0].sha).toBe(first);
    const contents = await owner.client.get(`${base}/contents/README.md`);
    expect(text(contents.body.content)).not.toBe('short-lived\n');
  });

  test('contents writes, branch and tag API writes show in the next read', async () => {
    const owner = await e2e.newWriter();
    const { base } = await repoWithClone(owner, 'through-api');
    const readme = await owner.client.get(`${base}/contents/README.md`);
    const written = await owner.client.put(`${base}/contents/README.md`, {
      content: Buffer.from('written by the API\n').toString('base64'), sha: readme.body.sha, message: 'API write',
    });
    expect(written.status).toBe(200);
    const head = written.body.commit.sha;
    expect(text((await owner.client.get(`${base}/contents/README.md`)).body.content)).toBe('written by the API\n');
    expect((await owner.client.get(`${base}/branches/main`)).body.commit.id).toBe(head);

    const branched = await owner.client.post(`${base}/branches`, { new_branch_name: 'topic' });
    expect(branched.status).toBe(201);
    expect((await owner.client.get(`${base}/branches/topic`)).body.commit.id).toBe(head);
    expect((await owner.client.get(`${base}/contents/README.md?ref=topic`)).status).toBe(200);

    expect((await owner.client.post(`${base}/tags`, { tag_name: 'v1', target: 'topic', message: 'One' })).status).toBe(201);
    const tags = await owner.client.get(`${base}/tags`);
    expect(tags.body.map((t: { name: string; commit: { sha: string } }) => [t.name, t.commit.sha])).toEqual([['v1', head]]);
    expect((await owner.client.get(`${base}/commits?sha=v1&limit=1`)).body[0].sha).toBe(head);

    expect((await owner.client.delete(`${base}/tags/v1`)).status).toBe(204);
    expect((await owner.client.get(`${base}/tags`)).body).toEqual([]);
    expect((await owner.client.delete(`${base}/branches/topic`)).status).toBe(204);
    expect((await owner.client.get(`${base}/branches/topic`)).status).toBe(404);
  });

  test('a first push into an empty repository shows in the next read through another gateway replica', async () => {
    const owner = await e2e.newWriter();
    const name = 'first-push';
    expect((await owner.client.post('/user/repos', { name })).status).toBe(201);
    const base = `/repos/${owner.username}/${name}`;
    const other = new ApiClient(await secondGateway(), { token: owner.token });
    // The second replica resolves (and remembers) the repository while it is empty.
    expect((await other.get(`${base}/contents`)).body).toEqual([]);
    expect((await other.get(`${base}/branches`)).body).toEqual([]);

    const dir = await mkdtemp(join(home, `${name}-`));
    await git(['init', '-q', '-b', 'main', 'work'], dir);
    const work = join(dir, 'work');
    const pushed = await commitFirst(work);
    const url = cloneUrl(e2e.system.baseUrl, `${owner.username}/${name}.git`, owner.username, owner.token);
    expect(await git(['push', '-q', url, 'HEAD:main'], work)).toMatchObject({ code: 0 });

    const contents = await other.get(`${base}/contents/README.md`);
    expect(contents.status).toBe(200);
    expect(text(contents.body.content)).toBe('first\n');
    expect((await other.get(`${base}/branches`)).body.map((b: { name: string; commit: { id: string } }) => [b.name, b.commit.id])).toEqual([['main', pushed]]);
    expect((await other.get(`${base}/commits?limit=1`)).body[0].sha).toBe(pushed);
  });
});
