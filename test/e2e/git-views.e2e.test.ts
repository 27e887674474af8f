// Read-only git views as a Gitea client sees them: archives (zip, tar.gz, bundle) of a
// branch, tag or commit; tags listed, read, created (lightweight and annotated) and
// deleted, with their events; languages of the default branch. Content is pushed with the
// real `git` CLI and downloads are checked with unzip, tar and `git bundle verify`.
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import type { EventRecorder } from '../support/event-recorder.js';
import { gitIn, runIn } from '../support/git-cli.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(90_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let home: string;
let recorder: EventRecorder;
const eventMatching: EventRecorder['eventMatching'] = (match) => recorder.eventMatching(match);
const run = (command: string, args: string[], cwd = home) => runIn(home, command, args, cwd);
const git = (args: string[], cwd = home) => gitIn(home, args, cwd);

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'views', gitHome: true, events: 'repository' });
  ({ system, anonymous, home, recorder } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

/** A fresh user known to the repository service, with a token that may write repositories. */
const newUser = () => e2e.newWriter();

/** Pushes `files` as one commit to a new repository `name` of the user; returns the commit. */
async function repositoryWith(user: { username: string; client: ApiClient; token: string }, name: string, files: Record<string, string>, options: { private?: boolean } = {}) {
  expect((await user.client.post('/user/repos', { name, private: options.private ?? false })).status).toBe(201);
  const work = await mkdtemp(join(home, 'work-'));
  expect((await git(['init', '-q', work])).code).toBe(0);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(work, path)), { recursive: true });
    await writeFile(join(work, path), content);
  }
  expect((await git(['add', '-A'], work)).code).toBe(0);
  expect((await git(['commit', '-qm', 'Initial files'], work)).code).toBe(0);
  const url = new URL(`${user.username}/${name}.git`, system.baseUrl);
  url.username = user.username;
  url.password = user.token;
  const push = await git(['push', url.toString(), 'HEAD:refs/heads/main'], work);
  expect(push.code).toBe(0);
  return { work, commit: (await git(['rev-parse', 'HEAD'], work)).stdout.trim() };
}

/** Downloads an API path as bytes (archives are not JSON), checked against the contract. */
const download = (path: string, auth?: [string, string]) => (auth ? anonymous.as({ basic: auth }) : anonymous).bytes(path);

async function saved(bytes: Buffer, name: string): Promise<string> {
  const path = join(await mkdtemp(join(home, 'dl-')), name);
  await writeFile(path, bytes);
  return path;
}

describe('archives', () => {
  test('a branch downloads as zip, tar.gz and bundle with Gitea\'s file names and the repository as prefix', async () => {
    const user = await newUser();
    const { commit } = await repositoryWith(user, 'shelf', { 'README.md': '# Shelf\n', 'src/app.ts': 'export const x = 1;\n' });

    const zip = await download(`/repos/${user.username}/shelf/archive/main.zip`);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('content-disposition')).toContain('filename="shelf-main.zip"');
    const listing = await run('unzip', ['-Z1', await saved(zip.bytes, 'a.zip')]);
    expect(listing.stdout.split('\n').filter(Boolean).sort()).toEqual(['shelf/', 'shelf/README.md', 'shelf/src/', 'shelf/src/app.ts']);

    const tgz = await download(`/repos/${user.username}/shelf/archive/main.tar.gz`);
    expect(tgz.status).toBe(200);
    expect(tgz.headers.get('content-disposition')).toContain('filename="shelf-main.tar.gz"');
    const entries = await run('tar', ['tzf', await saved(tgz.bytes, 'a.tar.gz')]);
    expect(entries.stdout.split('\n')).toEqual(expect.arrayContaining(['shelf/README.md', 'shelf/src/app.ts']));

    const bundle = await download(`/repos/${user.username}/shelf/archive/${commit}.bundle`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-disposition')).toContain(`filename="shelf-${commit}.bundle"`);
    const bundlePath = await saved(bundle.bytes, 'a.bundle');
    const scratch = await mkdtemp(join(home, 'verify-'));
    expect((await git(['init', '-q', scratch])).code).toBe(0);
    const verify = await git(['bundle', 'verify', bundlePath], scratch);
    expect(verify.code).toBe(0);
    const cloned = join(scratch, 'from-bundle');
    expect((await git(['clone', '-q', bundlePath, cloned])).code).toBe(0);
    expect((await git(['rev-parse', 'HEAD'], cloned)).stdout.trim()).toBe(commit);
  });

  test('an unknown ref, an unknown format and a ref shaped like an option are 404', async () => {
    const user = await newUser();
    await repositoryWith(user, 'refs', { 'a.txt': 'a\n' });
    expect((await download(`/repos/${user.username}/refs/archive/nope.zip`)).status).toBe(404);
    expect((await download(`/repos/${user.username}/refs/archive/main.rar`)).status).toBe(404);
    expect((await download(`/repos/${user.username}/refs/archive/--output=x.zip`)).status).toBe(404);
    expect((await download(`/repos/${user.username}/refs/archive/main..HEAD.zip`)).status).toBe(404);
  });

  test('a private repository\'s archive is 404 to others and downloads for its owner', async () => {
    const user = await newUser();
    await repositoryWith(user, 'secret', { 'a.txt': 'a\n' }, { private: true });
    const other = await newUser();
    expect((await download(`/repos/${user.username}/secret/archive/main.zip`)).status).toBe(404);
    expect((await download(`/repos/${user.username}/secret/archive/main.zip`, [other.username, other.password])).status).toBe(404);
    expect((await download(`/repos/${user.username}/secret/archive/main.zip`, [user.username, user.password])).status).toBe(200);
  });
});

describe('tags', () => {
  test('creates (201, as Gitea\'s handler answers) a lightweight and an annotated tag, lists them newest first with paging headers, reads and deletes them', async () => {
    const user = await newUser();
    const { commit } = await repositoryWith(user, 'tagged', { 'a.txt': 'a\n' });
    const base = `/repos/${user.username}/tagged/tags`;

    const light = await user.client.post(base, { tag_name: 'v1.0' });
    expect(light.status).toBe(201);
    expect(light.body).toMatchObject({ name: 'v1.0', id: commit, message: 'Initial files', commit: { sha: commit } });
    expect(light.body.zipball_url).toBe(`${system.baseUrl}${user.username}/tagged/archive/v1.0.zip`);
    expect(light.body.tarball_url).toBe(`${system.baseUrl}${user.username}/tagged/archive/v1.0.tar.gz`);

    const annotated = await user.client.post(base, { tag_name: 'v2.0', target: 'main', message: 'Second release' });
    expect(annotated.status).toBe(201);
    expect(annotated.body).toMatchObject({ name: 'v2.0', message: 'Second release', commit: { sha: commit } });
    expect(annotated.body.id).not.toBe(commit);

    const object = await anonymous.get(`/repos/${user.username}/tagged/git/tags/${annotated.body.id}`);
    expect(object.status).toBe(200);
    expect(object.body).toMatchObject({ tag: 'v2.0', sha: annotated.body.id, message: 'Second release\n', object: { sha: commit, type: 'commit' }, tagger: { name: user.username } });

    const created = await eventMatching((e) => e.subject === 'repository.tag.created' && e.payload.name === 'v2.0' && e.payload.repository?.name === 'tagged');
    expect(created.payload).toMatchObject({ ref: 'refs/tags/v2.0', sha: commit, pusher: { login: user.username } });

    const list = await anonymous.get(`${base}?limit=1`);
    expect(list.status).toBe(200);
    expect(list.headers.get('x-total-count')).toBe('2');
    expect(list.headers.get('link')).toContain('rel="next"');
    expect(list.body).toHaveLength(1);
    const both = await anonymous.get(base);
    expect(both.body.map((t: { name: string }) => t.name).sort()).toEqual(['v1.0', 'v2.0']);

    expect((await anonymous.get(`${base}/v1.0`)).body).toMatchObject({ name: 'v1.0', id: commit });
    // URLs name the repository as stored, whatever case the request used.
    const shouted = await anonymous.get(`/repos/${user.username.toUpperCase()}/TAGGED/tags/v1.0`);
    expect(shouted.body.zipball_url).toBe(`${system.baseUrl}${user.username}/tagged/archive/v1.0.zip`);
    expect((await user.client.delete(`${base}/v1.0`)).status).toBe(204);
    expect((await anonymous.get(`${base}/v1.0`)).status).toBe(404);
    expect((await user.client.delete(`${base}/v1.0`)).status).toBe(404);
    await eventMatching((e) => e.subject === 'repository.tag.deleted' && e.payload.name === 'v1.0' && e.payload.repository?.name === 'tagged');

    // Not an annotated tag object: 400, as Gitea.
    expect((await anonymous.get(`/repos/${user.username}/tagged/git/tags/${commit}`)).status).toBe(400);
    expect((await anonymous.get(`/repos/${user.username}/tagged/git/tags/nothex`)).status).toBe(400);

    // Tag names with slashes are one tag.
    expect((await user.client.post(base, { tag_name: 'release/2026' })).status).toBe(201);
    expect((await anonymous.get(`${base}/release/2026`)).body).toMatchObject({ name: 'release/2026', id: commit });
    const slashed = await download(`/repos/${user.username}/tagged/archive/release/2026.zip`);
    expect(slashed.status).toBe(200);
    expect(slashed.headers.get('content-disposition')).toContain('filename="tagged-release-2026.zip"');
    expect((await user.client.delete(`${base}/release/2026`)).status).toBe(204);

    // The tag's zipball_url (Gitea's web path, not an API operation: plain fetch) downloads.
    const web = await fetch(light.body.zipball_url.replace('v1.0', 'v2.0'));
    expect(web.status).toBe(200);
    expect(web.headers.get('content-disposition')).toContain('filename="tagged-v2.0.zip"');
    await web.arrayBuffer();

    // The tag's archive downloads by its name.
    expect((await download(`/repos/${user.username}/tagged/archive/v2.0.tar.gz`)).status).toBe(200);
  });

  test('refuses an existing tag (409), an unknown target (404), a bad name (422) and callers without write permission', async () => {
    const user = await newUser();
    await repositoryWith(user, 'rules', { 'a.txt': 'a\n' });
    const base = `/repos/${user.username}/rules/tags`;
    expect((await user.client.post(base, { tag_name: 'v1' })).status).toBe(201);
    expect((await user.client.post(base, { tag_name: 'v1' })).status).toBe(409);
    expect((await user.client.post(base, { tag_name: 'v2', target: 'no-such-branch' })).status).toBe(404);
    expect((await user.client.post(base, { tag_name: '-v3' })).status).toBe(422);
    expect((await user.client.post(base, { tag_name: 'bad..name' })).status).toBe(422);

    // Gitea's reqRepoWriter answers 403, a status its document does not declare for these
    // operations, so this is asked without the contract check.
    const other = await newUser();
    const asOther = anonymous.as({ basic: [other.username, other.password] });
    expect((await asOther.undeclared('POST', base, { tag_name: 'v9' })).status).toBe(403);
    expect((await asOther.undeclared('DELETE', `${base}/v1`)).status).toBe(403);
    expect((await anonymous.get(`${base}/v1`)).status).toBe(200);
    expect((await anonymous.get(`${base}/v9`)).status).toBe(404);
    expect((await anonymous.post(base, { tag_name: 'v9' })).status).toBe(401);

    // An archived repository's tags are read-only (423), as Gitea.
    expect((await user.client.patch(`/repos/${user.username}/rules`, { archived: true })).status).toBe(200);
    expect((await user.client.post(base, { tag_name: 'v10' })).status).toBe(423);
    expect((await user.client.delete(`${base}/v1`)).status).toBe(423);
    expect((await anonymous.get(`${base}/v1`)).status).toBe(200);
  });
});

describe('languages', () => {
  test('bytes per language of the default branch, honouring .gitattributes, and the top one in the repository JSON', async () => {
    const user = await newUser();
    const app = 'export function main(): number {\n  return 42;\n}\n';
    const files = {
      'src/main.ts': app,
      'src/util.ts': 'export const twice = (n: number) => n * 2;\n',
      'web/index.html': '<!doctype html><title>x</title>\n',
      'vendor/lib.js': 'var vendored = true;\n'.repeat(50),
      'third/keep.py': 'print("kept")\n',
      'gen/big.ts': 'export const generated = 1;\n'.repeat(100),
      'tools/run.txt': 'echo run\n',
      'package.json': '{"name":"x"}\n',
      'README.md': '# Readme\n',
      '.gitattributes': 'gen/** linguist-generated\ntools/*.txt linguist-language=Shell\nthird/** linguist-vendored=false\n',
    };
    await repositoryWith(user, 'polyglot', files);

    const res = await anonymous.get(`/repos/${user.username}/polyglot/languages`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      TypeScript: Buffer.byteLength(files['src/main.ts']) + Buffer.byteLength(files['src/util.ts']),
      HTML: Buffer.byteLength(files['web/index.html']),
      Python: Buffer.byteLength(files['third/keep.py']),
      Shell: Buffer.byteLength(files['tools/run.txt']),
    });
    // Asked again (the cached answer) it is the same.
    expect((await anonymous.get(`/repos/${user.username}/polyglot/languages`)).body).toEqual(res.body);
    expect((await anonymous.get(`/repos/${user.username}/polyglot`)).body.language).toBe('TypeScript');
  });

  test('a push to the default branch sets the repository\'s language without asking /languages', async () => {
    const user = await newUser();
    await repositoryWith(user, 'pushed', { 'main.go': 'package main\n\nfunc main() {}\n', 'README.md': '# x\n' });
    let language = '';
    for (let attempt = 0; attempt < 200 && !language; attempt += 1) {
      language = (await anonymous.get(`/repos/${user.username}/pushed`)).body.language;
      if (!language) await new Promise((r) => setTimeout(r, 50));
    }
    expect(language).toBe('Go');
  });

  test('an empty repository has no languages; a private one is 404 to others', async () => {
    const user = await newUser();
    expect((await user.client.post('/user/repos', { name: 'nothing' })).status).toBe(201);
    const empty = await anonymous.get(`/repos/${user.username}/nothing/languages`);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({});
    expect((await anonymous.get(`/repos/${user.username}/nothing`)).body.language).toBe('');

    await repositoryWith(user, 'hidden', { 'a.go': 'package a\n' }, { private: true });
    expect((await anonymous.get(`/repos/${user.username}/hidden/languages`)).status).toBe(404);
    expect((await user.client.get(`/repos/${user.username}/hidden/languages`)).body).toEqual({ Go: 10 });
  });
});
