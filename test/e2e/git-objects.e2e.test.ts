// Raw files and git object views as a Gitea client sees them: /raw and /media by branch, tag
// or commit (in the path or as `ref`), the web raw paths download_url points at, trees with
// paging, blobs, and refs. The repository is filled with the real `git` CLI, and every byte
// served is compared with what was pushed.
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(90_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let home: string;
let owner: { username: string; password: string; token: string; client: ApiClient; basic: ApiClient };
const git = (args: string[], cwd = home) => gitIn(home, args, cwd);

// A PNG signature and header: enough for Gitea's sniffing to call it image/png.
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(300)]);
// Larger than one pipe buffer and full of NULs: must arrive byte for byte.
const BINARY = Buffer.concat([Buffer.from([0, 1, 2, 3]), randomBytes(300_000)]);
const FIRST: Record<string, string | Buffer> = {
  'README.md': '# Files\nfirst version\n',
  'logo.png': PNG,
  'data.bin': BINARY,
  'page.html': '<html><body><script>alert(1)</script></body></html>\n',
  'icon.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>\n',
  'docs/guide.md': '# Guide\n',
  'docs/deep/note.txt': 'deep note\n',
  'my notes.txt': 'spaces in the name\n',
};

let files: { first: string; second: string; feature: string; blobOf: (path: string) => Promise<string> };

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'objects', gitHome: true });
  ({ system, anonymous, home } = e2e);
  const user = await e2e.newWriter();
  owner = { username: user.username, password: user.password, token: user.token, client: anonymous.as({ token: user.token }), basic: user.client };
  files = await pushFiles('files');
  await pushFiles('hidden', { private: true });
  expect((await owner.basic.post('/user/repos', { name: 'empty' })).status).toBe(201);
}, 180_000);

afterAll(() => e2e?.close());

/** main: two commits (README changes), tag v1.0 (annotated) at the first, feature/x from it. */
async function pushFiles(name: string, options: { private?: boolean } = {}) {
  expect((await owner.basic.post('/user/repos', { name, private: options.private ?? false })).status).toBe(201);
  const work = await mkdtemp(join(home, 'work-'));
  const ok = async (args: string[]) => expect((await git(args, work)).code).toBe(0);
  await ok(['init', '-q', work]);
  for (const [path, content] of Object.entries(FIRST)) {
    await mkdir(dirname(join(work, path)), { recursive: true });
    await writeFile(join(work, path), content);
  }
  await ok(['add', '-A']);
  await ok(['commit', '-qm', 'First files']);
  await ok(['tag', '-a', 'v1.0', '-m', 'Version 1.0']);
  await ok(['checkout', '-qb', 'feature/x']);
  await writeFile(join(work, 'README.md'), '# Files\nfeature version\n');
  await ok(['commit', '-qam', 'Feature README']);
  await ok(['checkout', '-q', 'main']);
  await writeFile(join(work, 'README.md'), '# Files\nsecond version\n');
  await ok(['commit', '-qam', 'Second README']);
  await ok(['push', '-q', cloneUrl(system.baseUrl, `${owner.username}/${name}.git`, owner.username, owner.token), 'main', 'feature/x', 'v1.0']);
  const rev = async (what: string) => (await git(['rev-parse', what], work)).stdout.trim();
  return { first: await rev('v1.0^{commit}'), second: await rev('main'), feature: await rev('feature/x'), blobOf: (path: string) => rev(`main:${path}`) };
}

/** GET of an API path as bytes, checked against the contract; `as` picks the owner's credentials. */
async function apiBytes(path: string, options: { as?: 'token' | 'basic'; headers?: Record<string, string> } = {}) {
  const client = options.as === 'token' ? owner.client : options.as === 'basic' ? owner.basic : anonymous;
  return client.bytes(path, options.headers);
}

/**
 * GET of a web path (`/{owner}/{repo}/raw/...`, where download_url points) as bytes. These
 * are Gitea's web routes, not operations of the API contract, so plain fetch reads them.
 */
async function webBytes(path: string, auth?: 'token' | 'basic') {
  const headers: Record<string, string> = {};
  if (auth === 'token') headers.authorization = `token ${owner.token}`;
  if (auth === 'basic') headers.authorization = `Basic ${Buffer.from(`${owner.username}:${owner.password}`).toString('base64')}`;
  const res = await fetch(new URL(path, system.baseUrl), { headers });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const api = (path: string) => `/repos/${owner.username}/files${path}`;

describe('raw files', () => {
  test('a text file of the default branch is served byte for byte as UTF-8 text, inline, with its blob id as ETag', async () => {
    const res = await apiBytes(api('/raw/README.md'));
    expect(res.status).toBe(200);
    expect(res.bytes.toString()).toBe('# Files\nsecond version\n');
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('inline; filename=README.md');
    expect(res.headers.get('content-length')).toBe(String(res.bytes.length));
    expect(res.headers.get('x-gitea-object-type')).toBe('file');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('etag')).toBe(`"${await files.blobOf('README.md')}"`);
    expect(res.headers.get('last-modified')).toBeTruthy();
  });

  test('binary files arrive unchanged, images with their sniffed type and anything else as octet-stream', async () => {
    const png = await apiBytes(api('/raw/logo.png'));
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.bytes.equals(PNG)).toBe(true);
    const bin = await apiBytes(api('/raw/data.bin'));
    expect(bin.status).toBe(200);
    expect(bin.headers.get('content-type')).toBe('application/octet-stream');
    expect(bin.headers.get('content-length')).toBe(String(BINARY.length));
    expect(bin.bytes.equals(BINARY)).toBe(true);
  });

  test('HTML is served as plain text, SVG as an image, and a name with spaces is quoted', async () => {
    const html = await apiBytes(api('/raw/page.html'));
    expect(html.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(html.headers.get('content-security-policy')).toContain('sandbox');
    expect((await apiBytes(api('/raw/icon.svg'))).headers.get('content-type')).toBe('image/svg+xml');
    const spaced = await apiBytes(api('/raw/my%20notes.txt'));
    expect(spaced.status).toBe(200);
    expect(spaced.headers.get('content-disposition')).toBe('inline; filename="my notes.txt"');
  });

  test('the ref is a branch, tag or commit named in the path or in the ref query', async () => {
    const text = async (path: string) => {
      const res = await apiBytes(api(path));
      expect([path, res.status]).toEqual([path, 200]);
      return res.bytes.toString();
    };
    expect(await text('/raw/feature/x/README.md')).toContain('feature version');
    expect(await text('/raw/v1.0/README.md')).toContain('first version');
    expect(await text(`/raw/${files.first}/README.md`)).toContain('first version');
    expect(await text('/raw/main/docs/deep/note.txt')).toBe('deep note\n');
    expect(await text('/raw/README.md?ref=feature/x')).toContain('feature version');
    expect(await text('/raw/README.md?ref=v1.0')).toContain('first version');
    expect(await text(`/raw/README.md?ref=${files.feature}`)).toContain('feature version');
    expect(await text('/media/README.md?ref=v1.0')).toContain('first version');
  });

  test('an unknown path, ref or commit, a directory and paths or refs shaped like attacks are 404', async () => {
    for (const path of [
      '/raw/nope.txt', '/raw/docs', '/raw/main/nope.txt', '/raw/README.md?ref=nope', `/raw/${'0'.repeat(40)}/README.md`,
      '/raw/docs/..%2F..%2FREADME.md', '/raw/README.md?ref=--upload-pack=touch%20x', '/raw/--output=x', '/media/nope.txt',
    ]) {
      const res = await anonymous.get(`/repos/${owner.username}/files${path}`);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.body.message).toBeTruthy();
    }
  });

  test('an unchanged file answers 304 to its ETag', async () => {
    const first = await apiBytes(api('/raw/README.md'));
    const again = await apiBytes(api('/raw/README.md'), { headers: { 'if-none-match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
  });

  test('the web raw paths serve branch, tag and commit files; an unknown ref is 404', async () => {
    const web = (path: string) => webBytes(`${owner.username}/files/raw/${path}`);
    expect((await web('branch/feature/x/README.md')).bytes.toString()).toContain('feature version');
    expect((await web('tag/v1.0/README.md')).bytes.toString()).toContain('first version');
    expect((await web(`commit/${files.second}/README.md`)).bytes.toString()).toContain('second version');
    expect((await web(`commit/${files.first.slice(0, 10)}/README.md`)).bytes.toString()).toContain('first version');
    const png = await web('branch/main/logo.png');
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(png.bytes.equals(PNG)).toBe(true);
    for (const path of ['branch/nope/README.md', 'tag/main/README.md', 'commit/nothex/README.md', 'branch/main/nope.txt']) {
      expect([path, (await web(path)).status]).toEqual([path, 404]);
    }
  });

  test('a private repository\'s files are 404 to others and served to its owner with a token or a password', async () => {
    expect((await anonymous.get(`/repos/${owner.username}/hidden/raw/README.md`)).status).toBe(404);
    expect((await webBytes(`${owner.username}/hidden/raw/branch/main/README.md`)).status).toBe(404);
    expect((await apiBytes(`/repos/${owner.username}/hidden/raw/README.md`, { as: 'token' })).bytes.toString()).toContain('second version');
    expect((await webBytes(`${owner.username}/hidden/raw/branch/main/README.md`, 'basic')).status).toBe(200);
    expect((await webBytes(`${owner.username}/hidden/raw/branch/main/README.md`, 'token')).status).toBe(200);
  });

  test('an empty repository has no files (404)', async () => {
    expect((await anonymous.get(`/repos/${owner.username}/empty/raw/README.md`)).status).toBe(404);
  });
});

describe('trees', () => {
  test('a branch\'s tree lists its top-level entries with mode, type, size, sha and URLs', async () => {
    const res = await anonymous.get(`/repos/${owner.username}/files/git/trees/main`);
    expect(res.status).toBe(200);
    const tree = res.body;
    expect(tree.truncated).toBe(false);
    expect(tree.page).toBe(1);
    expect(tree.total_count).toBe(7);
    expect(tree.url).toBe(`${system.baseUrl}api/v1/repos/${owner.username}/files/git/trees/${tree.sha}`);
    const readme = tree.tree.find((e: { path: string }) => e.path === 'README.md');
    expect(readme).toEqual({
      path: 'README.md', mode: '100644', type: 'blob', size: 23, sha: await files.blobOf('README.md'),
      url: `${system.baseUrl}api/v1/repos/${owner.username}/files/git/blobs/${await files.blobOf('README.md')}`,
    });
    const docs = tree.tree.find((e: { path: string }) => e.path === 'docs');
    expect(docs).toMatchObject({ mode: '040000', type: 'tree', size: 0, url: expect.stringContaining(`/git/trees/${docs.sha}`) });
    // A commit id gives its tree; so does a tag.
    expect((await anonymous.get(`/repos/${owner.username}/files/git/trees/${files.second}`)).body.sha).toBe(tree.sha);
    expect((await anonymous.get(`/repos/${owner.username}/files/git/trees/v1.0`)).status).toBe(200);
  });

  test('recursive lists every file and directory; per_page and page cut it, truncated says more follow', async () => {
    const base = `/repos/${owner.username}/files/git/trees/main`;
    const all = await anonymous.get(`${base}?recursive=true`);
    const paths = all.body.tree.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(['docs', 'docs/deep', 'docs/deep/note.txt', 'docs/guide.md', 'README.md']));
    expect(all.body.total_count).toBe(10);
    const first = await anonymous.get(`${base}?recursive=1&per_page=4`);
    expect(first.body.tree).toHaveLength(4);
    expect(first.body.truncated).toBe(true);
    const last = await anonymous.get(`${base}?recursive=1&per_page=4&page=3`);
    expect(last.body.tree.map((e: { path: string }) => e.path)).toEqual(paths.slice(8));
    expect(last.body.truncated).toBe(false);
    const beyond = await anonymous.get(`${base}?recursive=1&per_page=4&page=9`);
    expect(beyond.body).toMatchObject({ tree: [], truncated: false, page: 9, total_count: 10 });
  });

  test('an unknown sha or a ref shaped like an option is 400; a private repository is 404 to others', async () => {
    for (const sha of ['0'.repeat(40), 'nope', '--output=x', 'main..v1.0']) {
      const res = await anonymous.get(`/repos/${owner.username}/files/git/trees/${encodeURIComponent(sha)}`);
      expect([sha, res.status]).toEqual([sha, 400]);
    }
    expect((await anonymous.get(`/repos/${owner.username}/hidden/git/trees/main`)).status).toBe(404);
    expect((await owner.client.get(`/repos/${owner.username}/hidden/git/trees/main`)).status).toBe(200);
  });
});

describe('blobs', () => {
  test('a blob comes back as base64 of its exact bytes, with size and URL', async () => {
    const sha = await files.blobOf('logo.png');
    const res = await anonymous.get(`/repos/${owner.username}/files/git/blobs/${sha}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sha, size: PNG.length, encoding: 'base64', url: `${system.baseUrl}api/v1/repos/${owner.username}/files/git/blobs/${sha}` });
    expect(Buffer.from(res.body.content, 'base64').equals(PNG)).toBe(true);
  });

  test('an unknown, malformed or non-blob sha is 400', async () => {
    const tree = (await anonymous.get(`/repos/${owner.username}/files/git/trees/main`)).body.sha;
    for (const sha of ['0'.repeat(40), 'main', '--batch', tree]) {
      const res = await anonymous.get(`/repos/${owner.username}/files/git/blobs/${encodeURIComponent(sha)}`);
      expect([sha, res.status]).toEqual([sha, 400]);
    }
  });
});

describe('refs', () => {
  test('lists every branch and tag with its object, annotated tags as tag objects', async () => {
    const res = await anonymous.get(`/repos/${owner.username}/files/git/refs`);
    expect(res.status).toBe(200);
    const byName = new Map(res.body.map((r: { ref: string }) => [r.ref, r]));
    expect([...byName.keys()]).toEqual(['refs/heads/feature/x', 'refs/heads/main', 'refs/tags/v1.0']);
    const apiBase = `${system.baseUrl}api/v1/repos/${owner.username}/files`;
    expect(byName.get('refs/heads/main')).toEqual({
      ref: 'refs/heads/main', url: `${apiBase}/git/refs/heads/main`,
      object: { type: 'commit', sha: files.second, url: `${apiBase}/git/commits/${files.second}` },
    });
    expect(byName.get('refs/tags/v1.0')).toMatchObject({ object: { type: 'tag', url: expect.stringContaining('/git/tags/') } });
  });

  test('a path filters by prefix: heads lists branches, a full name gives one; no match is 404', async () => {
    const heads = await anonymous.get(`/repos/${owner.username}/files/git/refs/heads`);
    expect(heads.body.map((r: { ref: string }) => r.ref)).toEqual(['refs/heads/feature/x', 'refs/heads/main']);
    const one = await anonymous.get(`/repos/${owner.username}/files/git/refs/heads/feature/x`);
    expect(one.body.map((r: { ref: string }) => r.ref)).toEqual(['refs/heads/feature/x']);
    expect((await anonymous.get(`/repos/${owner.username}/files/git/refs/tags/nope`)).status).toBe(404);
    expect((await anonymous.get(`/repos/${owner.username}/empty/git/refs`)).status).toBe(404);
    expect((await anonymous.get(`/repos/${owner.username}/hidden/git/refs`)).status).toBe(404);
  });
});
