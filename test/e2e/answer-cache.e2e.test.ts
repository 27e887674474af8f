// The gateway remembers the answers of hot repository reads (a page of issues or pulls,
// labels, a file's contents, the branches: gateway/src/caches/answers.ts). What a user sees
// must not change for it: a write shows in the very next read, also one made through another
// gateway (the databases' triggers announce it), and a private repository's remembered
// answer is never handed to someone who may not read it.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { deployableEntry } from '../../cli/src/processes.js';
import { waitUntil } from '../../cli/src/net.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e, type Writer } from '../support/e2e.js';
import { freePorts, isListening } from '../support/free-port.js';

jest.setTimeout(120_000);

let e2e: E2e;
let replica: ChildProcess | undefined;
let secondUrl: string;

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'ac-user' });
  // A second gateway on the same services, with its own answers.
  const [port] = await freePorts(1);
  const env: NodeJS.ProcessEnv = { ...e2e.system.env, ANVIL_HTTP_PORT: String(port) };
  delete env.ANVIL_METRICS_ADDR;
  replica = spawn(process.execPath, [deployableEntry('gateway')], { env, stdio: 'ignore' });
  await waitUntil('the second gateway to listen', () => isListening(port), { timeoutMs: 60_000, abort: () => (replica?.exitCode !== null ? 'it exited' : undefined) });
  secondUrl = `http://127.0.0.1:${port}/`;
}, 180_000);

afterAll(async () => {
  if (replica && replica.exitCode === null && replica.signalCode === null) {
    const gone = new Promise((resolve) => replica!.once('exit', resolve));
    replica.kill('SIGTERM');
    await gone;
  }
  await e2e?.close();
});

async function newRepository(owner: Writer, options: { private?: boolean } = {}): Promise<string> {
  const name = e2e.users.unique('repo-');
  expect((await owner.client.post('/user/repos', { name, private: options.private ?? false, auto_init: true })).status).toBe(201);
  return `/repos/${owner.username}/${name}`;
}

const titles = (body: Array<{ title: string }>) => body.map((issue) => issue.title);

/** A user with a token that may read and write repositories and issues. */
const newWriter = () => e2e.newWriter({ scopes: ['write:repository', 'write:issue'] });

/** Repeats `read` until `done` holds of its answer, for at most `withinMs`; the last answer. */
async function readUntil<T>(read: () => Promise<T>, done: (answer: T) => boolean, withinMs: number): Promise<T> {
  const until = Date.now() + withinMs;
  let answer = await read();
  while (!done(answer) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    answer = await read();
  }
  return answer;
}

describe('reads right after writes, through the gateway that remembers answers', () => {
  test('a new issue, comment and label show in the lists at once after the POST', async () => {
    const owner = await newWriter();
    const base = await newRepository(owner);
    const client = owner.client;
    expect((await client.get(`${base}/issues?state=all`)).body).toEqual([]);
    expect((await client.get(`${base}/issues?state=all`)).body).toEqual([]);

    expect((await client.post(`${base}/issues`, { title: 'first' })).status).toBe(201);
    expect(titles((await client.get(`${base}/issues?state=all`)).body)).toEqual(['first']);

    expect((await client.get(`${base}/issues/1/comments`)).body).toEqual([]);
    expect((await client.post(`${base}/issues/1/comments`, { body: 'a comment' })).status).toBe(201);
    expect((await client.get(`${base}/issues/1/comments`)).body.map((c: { body: string }) => c.body)).toEqual(['a comment']);

    expect((await client.get(`${base}/labels`)).body).toEqual([]);
    expect((await client.post(`${base}/labels`, { name: 'bug', color: '#ee0701' })).status).toBe(201);
    expect((await client.get(`${base}/labels`)).body.map((l: { name: string }) => l.name)).toEqual(['bug']);

    expect((await client.patch(`${base}/issues/1`, { state: 'closed' })).status).toBe(201);
    expect((await client.get(`${base}/issues/1`)).body.state).toBe('closed');
    expect((await client.get(`${base}/issues?state=open`)).body).toEqual([]);
  });

  test('a page remembered keeps its own paging headers, and another page or query is its own answer', async () => {
    const owner = await newWriter();
    const base = await newRepository(owner);
    for (const title of ['one', 'two', 'three']) expect((await owner.client.post(`${base}/issues`, { title })).status).toBe(201);
    for (let i = 0; i < 2; i++) {
      const first = await owner.client.get(`${base}/issues?state=all&limit=2&page=1`);
      expect(titles(first.body)).toEqual(['three', 'two']);
      expect(first.headers.get('x-total-count')).toBe('3');
      expect(first.headers.get('link')).toContain('rel="next"');
      const second = await owner.client.get(`${base}/issues?state=all&limit=2&page=2`);
      expect(titles(second.body)).toEqual(['one']);
      expect(second.headers.get('link')).toContain('rel="first"');
      expect(titles((await owner.client.get(`${base}/issues?state=all&q=two`)).body)).toEqual(['two']);
    }
  });

  test('an issue opened through another gateway shows in this gateway\'s list long before the cache would expire', async () => {
    const owner = await newWriter();
    const base = await newRepository(owner);
    const other = new ApiClient(secondUrl, { token: owner.token });
    // The second gateway remembers the empty list (and the branch list, and the README).
    expect((await other.get(`${base}/issues?state=all`)).body).toEqual([]);
    expect((await other.get(`${base}/issues?state=all`)).body).toEqual([]);
    const readme = (await other.get(`${base}/contents/README.md`)).body.sha;
    const branches = (await other.get(`${base}/branches`)).body;
    expect(branches).toHaveLength(1);

    expect((await owner.client.post(`${base}/issues`, { title: 'from the first gateway' })).status).toBe(201);
    const posted = Date.now();
    const seen = await readUntil(() => other.get(`${base}/issues?state=all`), (res) => res.body.length === 1, 5_000);
    expect(titles(seen.body)).toEqual(['from the first gateway']);
    // The cache keeps answers 10 s; the repository's hint dropped this one.
    expect(Date.now() - posted).toBeLessThan(5_000);

    // A commit through the first gateway's contents API: the second one's git reads follow.
    const put = await owner.client.put(`${base}/contents/README.md`, { content: Buffer.from('changed\n').toString('base64'), sha: readme, message: 'change' });
    expect(put.status).toBe(200);
    const putAt = Date.now();
    const contents = await readUntil(() => other.get(`${base}/contents/README.md`), (res) => res.body.sha !== readme, 5_000);
    expect(Buffer.from(contents.body.content, 'base64').toString('utf8')).toBe('changed\n');
    const moved = await readUntil(() => other.get(`${base}/branches`), (res) => res.body[0].commit.id !== branches[0].commit.id, 5_000);
    expect(moved.body[0].commit.id).toBe(put.body.commit.sha);
    expect(Date.now() - putAt).toBeLessThan(5_000);
  });
});

describe('a repository\'s figures (size, updated_at) after a write elsewhere', () => {
  test('a contents write through another gateway shows in this gateway\'s repository JSON, while its contents reads go on', async () => {
    const owner = await newWriter();
    const base = await newRepository(owner);
    const other = new ApiClient(secondUrl, { token: owner.token });
    // The second gateway remembers the repository for its JSON and for a contents read's guards.
    const before = (await other.get(base)).body;
    expect((await other.get(base)).body).toEqual(before);
    expect((await other.get(`${base}/contents/README.md`)).status).toBe(200);

    // Random bytes do not compress: the repository grows by about their size.
    const bytes = Buffer.from(Array.from({ length: 64 * 1024 }, () => Math.floor(Math.random() * 256)));
    const put = await owner.client.post(`${base}/contents/blob.bin`, { content: bytes.toString('base64'), message: 'grow' });
    expect(put.status).toBe(201);
    const putAt = Date.now();
    const grown = await readUntil(() => other.get(base), (res) => res.body.size > before.size, 5_000);
    expect(grown.body.size).toBeGreaterThanOrEqual(before.size + 60);
    expect(Date.parse(grown.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(before.updated_at));
    expect(Date.now() - putAt).toBeLessThan(5_000);
    // The new file reads through the second gateway too, and the repository stays as it is now.
    const file = await readUntil(() => other.get(`${base}/contents/blob.bin`), (res) => res.status === 200, 5_000);
    expect(Buffer.from(file.body.content, 'base64').equals(bytes)).toBe(true);
    expect((await other.get(base)).body.size).toBe(grown.body.size);
    // The gateway that took the write shows it as well.
    const here = await readUntil(() => owner.client.get(base), (res) => res.body.size === grown.body.size, 5_000);
    expect(here.body.size).toBe(grown.body.size);
  });
});

describe('answers for clients that take gzip', () => {
  test('a repeated page comes gzipped to a client that asks for it, the same JSON, and plain to one that does not', async () => {
    const owner = await newWriter();
    const base = await newRepository(owner);
    // A page of pulls is big (each carries its base and head repositories): worth compressing.
    for (let i = 0; i < 3; i++) {
      const branch = `topic-${i}`;
      expect((await owner.client.post(`${base}/contents/${branch}.txt`, { content: Buffer.from(`${i}\n`).toString('base64'), new_branch: branch })).status).toBe(201);
      expect((await owner.client.post(`${base}/pulls`, { title: `topic ${i}`, head: branch, base: 'main' })).status).toBe(201);
    }
    const read = (encoding: string) => owner.client.request('GET', `${base}/pulls?state=all`, { headers: { 'accept-encoding': encoding } });
    // Each pull carries its base repository, whose open_pr_counter follows the pulls' events:
    // the page is compared once it counts all three.
    const counted = (res: Awaited<ReturnType<typeof read>>) =>
      res.status === 200 && Array.isArray(res.body) && res.body.length === 3 && res.body.every((p: any) => p.base?.repo?.open_pr_counter === 3);
    const plain = await readUntil(() => read('identity'), counted, 5_000);
    expect(plain.status).toBe(200);
    expect(plain.body).toHaveLength(3);
    expect(counted(plain)).toBe(true);
    // fetch unpacks what it asked gzip for: the header tells how it travelled. An answer is
    // compressed from its second send on (a late hint of the writes above may drop it once).
    const second = await readUntil(() => read('gzip'), (res) => res.headers.get('content-encoding') === 'gzip', 5_000);
    expect(second.headers.get('content-encoding')).toBe('gzip');
    expect(second.headers.get('vary')).toBe('Accept-Encoding');
    expect(second.body).toEqual(plain.body);
    expect(second.headers.get('x-total-count')).toBe('3');
    const again = await read('identity');
    expect(again.headers.get('content-encoding')).toBeNull();
    expect(again.body).toEqual(plain.body);
  });

  test('a raw file sent gzipped names its ETag weakly, and that ETag still answers 304', async () => {
    const owner = await newWriter();
    const base = await newRepository(owner);
    const text = 'a line that repeats\n'.repeat(200);
    expect((await owner.client.post(`${base}/contents/notes.txt`, { content: Buffer.from(text).toString('base64') })).status).toBe(201);
    const raw = (headers: Record<string, string>) => fetch(`${e2e.system.baseUrl}api/v1${base}/raw/notes.txt`, { headers: { authorization: `token ${owner.token}`, ...headers } });
    const plain = await raw({ 'accept-encoding': 'identity' });
    const strong = plain.headers.get('etag');
    expect(strong).toMatch(/^"/);
    expect(await plain.text()).toBe(text);
    const packed = await readUntil(() => raw({ 'accept-encoding': 'gzip' }), (res) => res.headers.get('content-encoding') === 'gzip', 5_000);
    expect(packed.headers.get('content-encoding')).toBe('gzip');
    expect(await packed.text()).toBe(text);
    expect(packed.headers.get('etag')).toBe(`W/${strong}`);
    // The write's consumers (languages, licences) may change the repository's row a moment
    // later, which drops its remembered answers: the next read then remembers it again.
    const unchanged = await readUntil(() => raw({ 'accept-encoding': 'gzip', 'if-none-match': packed.headers.get('etag')! }), (res) => res.status === 304, 5_000);
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get('etag')).toBe(`W/${strong}`);
    const plainUnchanged = await readUntil(() => raw({ 'accept-encoding': 'identity', 'if-none-match': packed.headers.get('etag')! }), (res) => res.status === 304, 5_000);
    expect(plainUnchanged.status).toBe(304);
    expect(plainUnchanged.headers.get('etag')).toBe(strong);
  });
});

describe('a private repository\'s remembered answers', () => {
  test('are not served to a stranger, to anyone signed out, or to a token without the repository scope', async () => {
    const owner = await newWriter();
    const base = await newRepository(owner, { private: true });
    expect((await owner.client.post(`${base}/issues`, { title: 'secret plans' })).status).toBe(201);
    const ownersToken = e2e.anonymous.as({ token: owner.token });
    for (let i = 0; i < 2; i++) {
      expect(titles((await ownersToken.get(`${base}/issues`)).body)).toEqual(['secret plans']);
      expect((await ownersToken.get(`${base}/contents/README.md`)).status).toBe(200);
    }

    const stranger = await newWriter();
    const strangersToken = e2e.anonymous.as({ token: stranger.token });
    expect((await strangersToken.get(`${base}/issues`)).status).toBe(404);
    expect((await strangersToken.get(`${base}/contents/README.md`)).status).toBe(404);
    expect((await e2e.anonymous.get(`${base}/issues`)).status).toBe(404);
    expect((await new ApiClient(secondUrl).get(`${base}/issues`)).status).toBe(404);

    const userOnly = e2e.anonymous.as({ token: await e2e.users.newToken(owner, ['read:user']) });
    expect((await userOnly.get(`${base}/issues`)).status).toBe(403);
    expect((await userOnly.get(`${base}/contents/README.md`)).status).toBe(403);
  });

  test('a stranger\'s 404 for a private repository gives way as soon as the repository is made public, on every gateway', async () => {
    const owner = await newWriter();
    const base = await newRepository(owner, { private: true });
    const other = new ApiClient(secondUrl);
    // Both gateways answer the probe 404, and now remember that answer.
    for (let i = 0; i < 2; i++) {
      expect((await e2e.anonymous.get(base)).status).toBe(404);
      expect((await other.get(base)).status).toBe(404);
    }
    expect((await owner.client.patch(base, { private: false })).status).toBe(200);
    // The gateway that handled the write forgets at once; the other one when the hint arrives.
    expect((await e2e.anonymous.get(base)).status).toBe(200);
    const madePublic = Date.now();
    const elsewhere = await readUntil(() => other.get(base), (res) => res.status === 200, 5_000);
    expect(elsewhere.status).toBe(200);
    expect(Date.now() - madePublic).toBeLessThan(5_000);
  });

  test('are no longer served to a collaborator once removed', async () => {
    const owner = await newWriter();
    const base = await newRepository(owner, { private: true });
    const collaborator = await newWriter();
    expect((await owner.client.put(`${base}/collaborators/${collaborator.username}`, { permission: 'read' })).status).toBe(204);
    const reader = e2e.anonymous.as({ token: collaborator.token });
    const other = new ApiClient(secondUrl, { token: collaborator.token });
    for (let i = 0; i < 2; i++) {
      expect((await reader.get(`${base}/issues`)).status).toBe(200);
      expect((await other.get(`${base}/issues`)).status).toBe(200);
    }
    expect((await owner.client.delete(`${base}/collaborators/${collaborator.username}`)).status).toBe(204);
    expect((await reader.get(`${base}/issues`)).status).toBe(404);
    const elsewhere = await readUntil(() => other.get(`${base}/issues`), (res) => res.status === 404, 5_000);
    expect(elsewhere.status).toBe(404);
  });
});

describe('the ref advertisement a clone or fetch starts with', () => {
  /** What `info/refs?service=git-upload-pack` answers through the gateway at `root`: status and the refs advertised. */
  async function advertised(root: string, path: string, who?: { username: string; token: string }) {
    const headers: Record<string, string> = who ? { authorization: `Basic ${Buffer.from(`${who.username}:${who.token}`).toString('base64')}` } : {};
    const res = await fetch(`${root}${path.slice('/repos/'.length)}.git/info/refs?service=git-upload-pack`, { headers });
    const text = await res.text();
    const refs = new Map([...text.matchAll(/([0-9a-f]{40}) (refs\/[^\0\n]+)/g)].map((m) => [m[2], m[1]]));
    return { status: res.status, contentType: res.headers.get('content-type'), refs };
  }

  test('follows a branch made through the API on every gateway, and is never given to those who may not read', async () => {
    const owner = await newWriter();
    const base = await newRepository(owner, { private: true });
    for (const root of [e2e.system.baseUrl, secondUrl, e2e.system.baseUrl, secondUrl]) {
      const answer = await advertised(root, base, owner);
      expect(answer).toMatchObject({ status: 200, contentType: 'application/x-git-upload-pack-advertisement' });
      expect([...answer.refs.keys()]).toEqual(['refs/heads/main']);
    }

    const made = await owner.client.post(`${base}/branches`, { new_branch_name: 'feature', old_branch_name: 'main' });
    expect(made.status).toBe(201);
    // The gateway that handled the write at once, the other one when the hint arrives.
    expect((await advertised(e2e.system.baseUrl, base, owner)).refs.get('refs/heads/feature')).toBe(made.body.commit.id);
    const madeAt = Date.now();
    const elsewhere = await readUntil(() => advertised(secondUrl, base, owner), (a) => a.refs.has('refs/heads/feature'), 5_000);
    expect(elsewhere.refs.get('refs/heads/feature')).toBe(made.body.commit.id);
    expect(Date.now() - madeAt).toBeLessThan(5_000);

    const stranger = await newWriter();
    expect((await advertised(e2e.system.baseUrl, base, stranger)).status).toBe(404);
    expect((await advertised(secondUrl, base)).status).toBe(401);
  });
});

describe('answers a gateway sends before its route table (the same GET again)', () => {
  /** Status, headers (without the date) and body of a GET, as sent. */
  async function sent(path: string, headers: Record<string, string> = {}) {
    const url = path.startsWith('/repos/') ? `${e2e.system.baseUrl}api/v1${path}` : `${e2e.system.baseUrl}${path.slice(1)}`;
    const res = await fetch(url, { headers: { 'accept-encoding': 'identity', ...headers } });
    const seen = Object.fromEntries([...res.headers].filter(([name]) => name !== 'date'));
    return { status: res.status, headers: seen, body: await res.text() };
  }

  test('is the answer the full way gave, headers and all: a branch list, a repository, a stranger\'s 404, a ref advertisement', async () => {
    const owner = await newWriter();
    const base = await newRepository(owner);
    const secret = await newRepository(owner, { private: true });
    const token = { authorization: `token ${owner.token}` };
    for (const [path, headers, status] of [[`${base}/branches`, token, 200], [base, token, 200], [secret, {}, 404]] as const) {
      // Checked against the contract once, then compared byte for byte.
      expect((await e2e.anonymous.request('GET', path, { headers })).status).toBe(status);
      const first = await sent(path, headers);
      const again = await sent(path, headers);
      expect(again).toEqual(first);
      expect(first.headers['access-control-expose-headers']).toBe('Link, X-Total-Count');
    }
    // A clone's ref advertisement, per protocol git asks for.
    const refs = `/${base.slice('/repos/'.length)}.git/info/refs?service=git-upload-pack`;
    for (const protocol of [{}, { 'git-protocol': 'version=2' }] as Array<Record<string, string>>) {
      const first = await sent(refs, { ...token, ...protocol });
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toBe('application/x-git-upload-pack-advertisement');
      expect(await sent(refs, { ...token, ...protocol })).toEqual(first);
    }
    expect((await sent(refs, token)).body).not.toEqual((await sent(refs, { ...token, 'git-protocol': 'version=2' })).body);
  });

  test('a deleted token is refused on its very next read', async () => {
    const owner = await newWriter();
    const base = await newRepository(owner);
    const reader = e2e.anonymous.as({ token: owner.token });
    for (let i = 0; i < 2; i++) expect((await reader.get(`${base}/branches`)).status).toBe(200);
    const tokens = await owner.client.get(`/users/${owner.username}/tokens`);
    for (const t of tokens.body as Array<{ id: number }>) expect((await owner.client.delete(`/users/${owner.username}/tokens/${t.id}`)).status).toBe(204);
    expect((await reader.get(`${base}/branches`)).status).toBe(401);
    expect((await reader.get(base)).status).toBe(401);
  });

  test('an admin reading with a Sudo header is answered as the user it names, not from the admin\'s own answers', async () => {
    const owner = await newWriter();
    const secret = await newRepository(owner, { private: true });
    const stranger = await newWriter();
    for (let i = 0; i < 2; i++) {
      expect((await e2e.admin.get(secret)).status).toBe(200);
      expect((await e2e.admin.get(`${secret}/contents/README.md`)).status).toBe(200);
    }
    const asStranger = { headers: { sudo: stranger.username } };
    expect((await e2e.admin.request('GET', secret, asStranger)).status).toBe(404);
    expect((await e2e.admin.request('GET', `${secret}/contents/README.md`, asStranger)).status).toBe(404);
  });
});
