// The contents API through the gateway, with real git behind it: reading files and
// directories at a ref, creating, updating, renaming and deleting files in commits, branch
// protection and permissions on every write, concurrent writers, and the result read back
// with `git clone`.
import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import pg from 'pg';
import { serviceDatabaseUrl } from '@anvil/kit';
import type { Accounts } from '../support/accounts.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import type { EventRecorder } from '../support/event-recorder.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(120_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let users: Accounts;
let home: string;
let recorder: EventRecorder;
const git = (args: string[], cwd = home) => gitIn(home, args, cwd);
const b64 = (text: string) => Buffer.from(text).toString('base64');
const text = (base64: string) => Buffer.from(base64, 'base64').toString('utf8');

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'ct-user', gitHome: true, events: 'repository' });
  ({ system, anonymous, users, home, recorder } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

/** A fresh user with a full name (commits are authored with it), and a token that may write repositories. */
const newUser = () => e2e.newWriter({ fields: { full_name: `Full ${users.unique('name')}` } });

type User = Awaited<ReturnType<typeof newUser>>;

async function newRepo(owner: User, name: string, options: Record<string, unknown> = { auto_init: true }) {
  const made = await owner.client.post('/user/repos', { name, ...options });
  expect(made.status).toBe(201);
  return `/repos/${owner.username}/${name}`;
}

async function cloneOf(owner: User, name: string): Promise<string> {
  const dir = await mkdtemp(join(home, `${name}-`));
  const url = cloneUrl(system.baseUrl, `${owner.username}/${name}.git`, owner.username, owner.token);
  const cloned = await git(['clone', '-q', url, 'work'], dir);
  expect(cloned).toMatchObject({ code: 0 });
  return join(dir, 'work');
}

describe('reading files and directories', () => {
  test('a file with its content and links, a directory listing, a ref, and 404 for what does not exist', async () => {
    const owner = await newUser();
    const base = await newRepo(owner, 'reader');
    const root = system.baseUrl.replace(/\/?$/, '/');

    const readme = await anonymous.get(`${base}/contents/README.md`);
    expect(readme.status).toBe(200);
    expect(readme.body).toMatchObject({
      name: 'README.md', path: 'README.md', type: 'file', encoding: 'base64',
      size: Buffer.from(text(readme.body.content)).length,
      download_url: `${root}${owner.username}/reader/raw/branch/main/README.md`,
      html_url: `${root}${owner.username}/reader/src/branch/main/README.md`,
      url: `${root}api/v1${base}/contents/README.md?ref=main`,
      git_url: `${root}api/v1${base}/git/blobs/${readme.body.sha}`,
      _links: { self: `${root}api/v1${base}/contents/README.md?ref=main`, git: `${root}api/v1${base}/git/blobs/${readme.body.sha}`, html: `${root}${owner.username}/reader/src/branch/main/README.md` },
    });
    expect(text(readme.body.content)).toContain('# reader');
    const head = (await anonymous.get(`${base}/branches/main`)).body.commit;
    expect(readme.body.last_commit_sha).toBe(head.id);
    expect(readme.body.last_committer_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const made = await owner.client.post(`${base}/contents/docs/guide/intro.md`, { content: b64('intro\n') });
    expect(made.status).toBe(201);
    const list = await anonymous.get(`${base}/contents`);
    expect(list.status).toBe(200);
    expect(list.body.map((e: { name: string; type: string }) => [e.name, e.type])).toEqual([['README.md', 'file'], ['docs', 'dir']]);
    expect(list.body[0].content).toBeUndefined();
    expect(list.body[1]).toMatchObject({ last_commit_sha: made.body.commit.sha, path: 'docs' });
    expect(list.body[1].download_url).toBeUndefined();
    // A directory below the root is a list too, as Gitea sends it; its document types this
    // operation's 200 as one object only, so this read goes out without the contract check.
    const docs = await anonymous.undeclared<Array<{ path: string }>>('GET', `${base}/contents/docs`);
    expect(docs.status).toBe(200);
    expect(docs.body.map((e) => e.path)).toEqual(['docs/guide']);

    // At a tag and at a commit: the old tree, with links naming the ref kind.
    expect((await owner.client.post(`${base}/tags`, { tag_name: 'v1', target: head.id })).status).toBe(201);
    expect((await anonymous.get(`${base}/contents/docs?ref=v1`)).status).toBe(404);
    const atTag = await anonymous.get(`${base}/contents/README.md?ref=v1`);
    expect(atTag.body.download_url).toBe(`${root}${owner.username}/reader/raw/tag/v1/README.md`);
    const atCommit = await anonymous.get(`${base}/contents/README.md?ref=${head.id.slice(0, 10)}`);
    expect(atCommit.body.download_url).toBe(`${root}${owner.username}/reader/raw/commit/${head.id}/README.md`);

    expect((await anonymous.get(`${base}/contents/nope.txt`)).status).toBe(404);
    expect((await anonymous.get(`${base}/contents/README.md?ref=no-such-branch`)).status).toBe(404);
    expect((await anonymous.get(`${base}/contents/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);

    const ext = await anonymous.get(`${base}/contents-ext/docs/guide/intro.md?includes=file_content,commit_metadata,commit_message`);
    expect(ext.status).toBe(200);
    expect(ext.body.file_contents).toMatchObject({ path: 'docs/guide/intro.md', last_commit_sha: made.body.commit.sha, last_commit_message: 'Add docs/guide/intro.md\n' });
    expect(text(ext.body.file_contents.content)).toBe('intro\n');
    const extDir = await anonymous.get(`${base}/contents-ext/.`);
    expect(extDir.body.dir_contents.map((e: { name: string }) => e.name)).toEqual(['README.md', 'docs']);
    expect(extDir.body.dir_contents[0].last_commit_sha).toBeUndefined();

    const several = await anonymous.post(`${base}/file-contents`, { files: ['README.md', 'docs/guide/intro.md', 'missing'] });
    expect(several.status).toBe(200);
    expect(several.body.map((e: { path: string }) => e.path)).toEqual(['README.md', 'docs/guide/intro.md']);
  });

  test('an empty repository has an empty root; a private repository is invisible to others', async () => {
    const owner = await newUser();
    const other = await newUser();
    const empty = await newRepo(owner, 'hollow', { auto_init: false });
    expect((await owner.client.get(`${empty}/contents`)).body).toEqual([]);
    expect((await owner.client.get(`${empty}/contents/README.md`)).status).toBe(404);

    const secret = await newRepo(owner, 'secret', { auto_init: true, private: true });
    expect((await owner.client.get(`${secret}/contents/README.md`)).status).toBe(200);
    expect((await other.client.get(`${secret}/contents/README.md`)).status).toBe(404);
    expect((await anonymous.get(`${secret}/contents`)).status).toBe(404);
    expect((await other.client.post(`${secret}/contents/x.txt`, { content: b64('x') })).status).toBe(404);
  });
});

describe('writing files', () => {
  test('create, update, rename and delete, each one commit on main, read back with git clone and announced as pushes', async () => {
    const owner = await newUser();
    const base = await newRepo(owner, 'writer');
    const repoId = (await owner.client.get(base)).body.id;
    const before = (await owner.client.get(`${base}/branches/main`)).body.commit.id;

    const created = await owner.client.post(`${base}/contents/notes/todo.txt`, { content: b64('one\n') });
    expect(created.status).toBe(201);
    expect(created.body.content).toMatchObject({ name: 'todo.txt', path: 'notes/todo.txt', type: 'file', size: 4, encoding: 'base64' });
    expect(text(created.body.content.content)).toBe('one\n');
    expect(created.body.commit).toMatchObject({
      message: 'Add notes/todo.txt\n',
      author: { name: owner.user.full_name, email: `${owner.username}@example.com` },
      parents: [{ sha: before }],
    });
    expect(created.body.verification).toMatchObject({ verified: false, reason: 'gpg.error.not_signed_commit' });
    const push = await recorder.eventMatching((e) => e.subject === 'repository.push' && e.payload.repository?.id === repoId && e.payload.after === created.body.commit.sha);
    expect(push.payload).toMatchObject({ ref: 'refs/heads/main', before, total_commits: 1, pusher: { login: owner.username } });
    expect(push.payload.commits[0]).toMatchObject({ id: created.body.commit.sha, added: ['notes/todo.txt'] });

    const exists = await owner.client.post(`${base}/contents/notes/todo.txt`, { content: b64('again\n') });
    expect([exists.status, exists.body.message]).toEqual([422, 'repository file already exists [path: notes/todo.txt]']);

    const stale = await owner.client.put(`${base}/contents/notes/todo.txt`, { content: b64('two\n'), sha: 'a'.repeat(40) });
    expect([stale.status, stale.body.message]).toEqual([422, `sha does not match [given: ${'a'.repeat(40)}, expected: ${created.body.content.sha}]`]);
    const noSha = await owner.client.put(`${base}/contents/notes/todo.txt`, { content: b64('two\n') });
    expect(noSha.status).toBe(422);
    expect((await owner.client.put(`${base}/contents/notes/nothing.txt`, { content: b64('two\n'), sha: created.body.content.sha })).status).toBe(404);

    const updated = await owner.client.put(`${base}/contents/notes/todo.txt`, {
      content: b64('two\n'), sha: created.body.content.sha, message: 'Second thoughts',
      author: { name: 'Grace', email: 'grace@example.com' }, dates: { author: '2020-01-02T03:04:05Z', committer: '2021-01-02T03:04:05Z' }, signoff: true,
    });
    expect(updated.status).toBe(200);
    expect(updated.body.commit).toMatchObject({
      message: 'Second thoughts\n\nSigned-off-by: Grace <grace@example.com>\n',
      author: { name: 'Grace', email: 'grace@example.com', date: '2020-01-02T03:04:05Z' },
      committer: { name: 'Grace', email: 'grace@example.com', date: '2021-01-02T03:04:05Z' },
    });

    const renamed = await owner.client.put(`${base}/contents/notes/done.txt`, { content: b64('done\n'), sha: updated.body.content.sha, from_path: 'notes/todo.txt' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.content).toMatchObject({ path: 'notes/done.txt' });
    expect((await owner.client.get(`${base}/contents/notes/todo.txt`)).status).toBe(404);

    expect((await owner.client.delete(`${base}/contents/notes/done.txt`, { sha: 'b'.repeat(40) })).status).toBe(422);
    expect((await owner.client.delete(`${base}/contents/notes/gone.txt`, { sha: renamed.body.content.sha })).status).toBe(404);
    const deleted = await owner.client.delete(`${base}/contents/notes/done.txt`, { sha: renamed.body.content.sha });
    expect(deleted.status).toBe(200);
    expect(deleted.body.content).toBeNull();
    expect(deleted.body.commit.message).toBe('Delete notes/done.txt\n');

    const work = await cloneOf(owner, 'writer');
    const log = await git(['log', '--format=%s', '-5'], work);
    expect(log.stdout.trim().split('\n')).toEqual(['Delete notes/done.txt', 'Update notes/done.txt', 'Second thoughts', 'Add notes/todo.txt', 'Initial commit']);
    expect((await git(['ls-files'], work)).stdout.trim()).toBe('README.md');
  });

  test('several operations in one commit with POST /contents', async () => {
    const owner = await newUser();
    const base = await newRepo(owner, 'multi');
    const readme = (await owner.client.get(`${base}/contents/README.md`)).body;
    const seed = await owner.client.post(`${base}/contents/old.txt`, { content: b64('old\n') });
    const changed = await owner.client.post(`${base}/contents`, {
      files: [
        { operation: 'create', path: 'src/new.txt', content: b64('new\n') },
        { operation: 'update', path: 'README.md', content: b64('# changed\n'), sha: readme.sha },
        { operation: 'rename', path: 'moved/old.txt', from_path: 'old.txt', sha: seed.body.content.sha },
      ],
    });
    expect(changed.status).toBe(201);
    expect(changed.body.files.map((f: { path: string }) => f.path)).toEqual(['src/new.txt', 'README.md', 'moved/old.txt']);
    expect(text(changed.body.files[2].content)).toBe('old\n');
    expect(changed.body.commit.message).toBe('Add src/new.txt\nUpdate README.md, moved/old.txt\n');

    const removed = await owner.client.post(`${base}/contents`, {
      message: 'Tidy', files: [{ operation: 'delete', path: 'src/new.txt', sha: changed.body.files[0].sha }, { operation: 'upload', path: 'up.txt', content: b64('up\n') }],
    });
    expect(removed.status).toBe(201);
    expect(removed.body.files.map((f: { path: string }) => f.path)).toEqual(['up.txt']);

    const work = await cloneOf(owner, 'multi');
    expect((await git(['ls-files'], work)).stdout.trim().split('\n')).toEqual(['README.md', 'moved/old.txt', 'up.txt']);
    expect(await readFile(join(work, 'README.md'), 'utf8')).toBe('# changed\n');
    expect((await git(['rev-list', '--count', 'HEAD'], work)).stdout.trim()).toBe('4');

    const bad = await owner.client.post(`${base}/contents`, { files: [{ operation: 'create', path: 'a/../../escape.txt', content: b64('x') }] });
    expect(bad.status).toBe(422);
    for (const path of ['.git/config', '/abs.txt', 'a//b.txt', 'x/.GIT/hooks']) {
      expect((await owner.client.post(`${base}/contents`, { files: [{ operation: 'create', path, content: b64('x') }] })).status).toBe(422);
    }
    const dir = await owner.client.post(`${base}/contents`, { files: [{ operation: 'create', path: 'up.txt/inside.txt', content: b64('x') }] });
    expect([dir.status, dir.body.message]).toEqual([422, 'a file exists where you’re trying to create a subdirectory [path: up.txt]']);
  });

  test('branch and new_branch: a missing base branch is 404, a new branch is created from it and announced', async () => {
    const owner = await newUser();
    const base = await newRepo(owner, 'branchy');
    const repoId = (await owner.client.get(base)).body.id;
    const missing = await owner.client.post(`${base}/contents/a.txt`, { content: b64('a'), branch: 'no-such' });
    expect(missing.status).toBe(404);

    const onNew = await owner.client.post(`${base}/contents/a.txt`, { content: b64('a'), new_branch: 'feature/a' });
    expect(onNew.status).toBe(201);
    expect(onNew.body.content.download_url).toContain('/raw/branch/feature/a/a.txt');
    expect((await owner.client.get(`${base}/contents/a.txt`)).status).toBe(404);
    expect((await owner.client.get(`${base}/contents/a.txt?ref=feature/a`)).status).toBe(200);
    const made = await recorder.eventMatching((e) => e.subject === 'repository.branch.created' && e.payload.repository?.id === repoId && e.payload.name === 'feature/a');
    expect(made.payload.sha).toBe(onNew.body.commit.sha);

    const again = await owner.client.post(`${base}/contents/b.txt`, { content: b64('b'), new_branch: 'feature/a' });
    expect([again.status, again.body.message]).toEqual([422, 'branch already exists [name: feature/a]']);
    const onBranch = await owner.client.post(`${base}/contents/b.txt`, { content: b64('b'), branch: 'feature/a' });
    expect(onBranch.status).toBe(201);
    expect(onBranch.body.commit.parents[0].sha).toBe(onNew.body.commit.sha);
  });

  test('the first file in an empty repository makes its first commit and the repository non-empty', async () => {
    const owner = await newUser();
    const base = await newRepo(owner, 'blank', { auto_init: false, default_branch: 'trunk' });
    expect((await owner.client.get(base)).body.empty).toBe(true);
    const first = await owner.client.post(`${base}/contents/hello.txt`, { content: b64('hello\n') });
    expect(first.status).toBe(201);
    expect(first.body.commit.parents).toEqual([]);
    const repo = (await owner.client.get(base)).body;
    expect(repo).toMatchObject({ empty: false, default_branch: 'trunk' });
    const work = await cloneOf(owner, 'blank');
    expect(await readFile(join(work, 'hello.txt'), 'utf8')).toBe('hello\n');
    expect((await git(['branch', '--show-current'], work)).stdout.trim()).toBe('trunk');
  });

  test('a Go client\'s zero date means now, as in Gitea; a commit date before 1970 is refused with 422 and writes nothing', async () => {
    const owner = await newUser();
    const base = await newRepo(owner, 'dated');
    const before = Date.now() - 60_000;
    const zero = await owner.client.post(`${base}/contents`, {
      dates: { author: '0001-01-01T00:00:00Z', committer: '0001-01-01T00:00:00Z' }, files: [{ operation: 'create', path: 'now.txt', content: b64('now\n') }],
    });
    expect(zero.status).toBe(201);
    expect(Date.parse(zero.body.commit.author.date)).toBeGreaterThan(before);
    expect(Date.parse(zero.body.commit.committer.date)).toBeGreaterThan(before);

    const head = (await owner.client.get(`${base}/branches/main`)).body.commit.id;
    for (const dates of [{ author: '1960-01-01T00:00:00Z' }, { committer: '1969-12-31T23:59:59Z' }]) {
      const old = await owner.client.undeclared('POST', `${base}/contents`, { dates, files: [{ operation: 'create', path: 'old.txt', content: b64('old\n') }] });
      expect([old.status, old.body.message]).toEqual([422, `[dates.${Object.keys(dates)[0]}]: a commit date cannot be before 1970-01-01T00:00:00Z`]);
    }
    expect((await owner.client.get(`${base}/branches/main`)).body.commit.id).toBe(head);
  });
});

describe('who may write', () => {
  test('a read-only collaborator and an anonymous caller are refused; an archived repository is locked', async () => {
    const owner = await newUser();
    const reader = await newUser();
    const base = await newRepo(owner, 'guarded');
    expect((await owner.client.put(`${base}/collaborators/${reader.username}`, { permission: 'read' })).status).toBe(204);
    const denied = await reader.client.post(`${base}/contents/x.txt`, { content: b64('x') });
    expect([denied.status, denied.body.message]).toEqual([403, 'user should have a permission to write to the target branch']);
    expect((await reader.client.get(`${base}/contents/README.md`)).status).toBe(200);
    expect((await anonymous.post(`${base}/contents/x.txt`, { content: b64('x') })).status).toBe(401);

    expect((await owner.client.patch(base, { archived: true })).status).toBe(200);
    expect((await owner.client.post(`${base}/contents/x.txt`, { content: b64('x') })).status).toBe(423);
  });

  test('a collaborator lowered to read access elsewhere a moment ago cannot commit, though this gateway still remembers them as a writer', async () => {
    const owner = await newUser();
    const helper = await newUser();
    const base = await newRepo(owner, 'lowered');
    expect((await owner.client.put(`${base}/collaborators/${helper.username}`, { permission: 'write' })).status).toBe(204);
    expect((await helper.client.post(`${base}/contents/first.txt`, { content: b64('first') })).status).toBe(201);
    expect((await helper.client.get(base)).body.permissions).toMatchObject({ push: true });
    // Another gateway (or an administrator's SQL) lowers the grant: this gateway hears of it
    // only by the repository service's hint, which may come after the write below.
    const db = new pg.Client({ connectionString: serviceDatabaseUrl(system.env.ANVIL_DATABASE_URL!, 'repository') });
    await db.connect();
    try {
      const lowered = await db.query(
        `UPDATE collaboration SET mode = 'read' WHERE user_id = (SELECT id FROM owner WHERE lower_name = $1)
           AND repository_id = (SELECT r.id FROM repository r JOIN owner o ON o.id = r.owner_id WHERE o.lower_name = $2 AND r.lower_name = 'lowered')`,
        [helper.username.toLowerCase(), owner.username.toLowerCase()],
      );
      expect(lowered.rowCount).toBe(1);
    } finally {
      await db.end();
    }
    const denied = await helper.client.post(`${base}/contents/second.txt`, { content: b64('second') });
    expect([denied.status, denied.body.message]).toEqual([403, 'user should have a permission to write to the target branch']);
    expect((await owner.client.get(`${base}/contents/second.txt`)).status).toBe(404);
  });

  test('branch protection refuses a writer off the whitelist and a protected file for everyone', async () => {
    const owner = await newUser();
    const helper = await newUser();
    const base = await newRepo(owner, 'protected');
    expect((await owner.client.put(`${base}/collaborators/${helper.username}`, { permission: 'write' })).status).toBe(204);
    expect((await owner.client.post(`${base}/branch_protections`, {
      rule_name: 'main', enable_push: true, enable_push_whitelist: true, push_whitelist_usernames: [owner.username],
      protected_file_patterns: '*.lock;secrets/**',
    })).status).toBe(201);
    const head = (await owner.client.get(`${base}/branches/main`)).body.commit.id;

    const refused = await helper.client.post(`${base}/contents/helper.txt`, { content: b64('h') });
    expect([refused.status, refused.body.message]).toEqual([403, `user cannot commit to repo [user: ${helper.username}]`]);
    const locked = await owner.client.post(`${base}/contents/deps.lock`, { content: b64('l') });
    expect([locked.status, locked.body.message]).toEqual([403, 'path is protected and can not be changed [path: deps.lock]']);
    const nested = await owner.client.post(`${base}/contents`, { files: [{ operation: 'create', path: 'ok.txt', content: b64('o') }, { operation: 'create', path: 'secrets/key.txt', content: b64('k') }] });
    expect(nested.status).toBe(403);
    expect((await owner.client.get(`${base}/branches/main`)).body.commit.id).toBe(head);

    expect((await owner.client.post(`${base}/contents/owner.txt`, { content: b64('o') })).status).toBe(201);
    // Off the protected branch the helper may write, on a new branch of their own.
    expect((await helper.client.post(`${base}/contents/helper.txt`, { content: b64('h'), new_branch: 'helper' })).status).toBe(201);
  });
});

describe('the repository after a write', () => {
  test('its size (KiB, as Gitea reports it) soon grows by what the write stored', async () => {
    const owner = await newUser();
    const base = await newRepo(owner, 'sized');
    const before = (await owner.client.get(base)).body.size as number;
    // 256 KiB that zlib cannot shrink, so the stored object is at least that large.
    const noise = Buffer.from(Array.from({ length: 256 * 1024 }, () => Math.floor(Math.random() * 256)));
    expect((await owner.client.post(`${base}/contents/noise.bin`, { content: noise.toString('base64') })).status).toBe(201);
    // Measured after the answer, as Gitea does from its push queue.
    await users.eventually(async () => ({ status: (await owner.client.get(base)).body.size - before >= 256 ? 200 : 0 }), 200);
    const after = (await owner.client.get(base)).body.size as number;
    expect(after - before).toBeLessThan(1024);
  });
});

describe('concurrent writers', () => {
  test('many creates of different files on one branch at once all land, one commit each, none lost', async () => {
    const owner = await newUser();
    const base = await newRepo(owner, 'race');
    const client = anonymous.as({ token: owner.token });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) =>
      client.post(`${base}/contents/race/${i}.txt`, { content: b64(`${i}\n`) })));
    // Writers of one repository take turns in the repository service; a 409 would only come
    // from another replica winning the update-ref race.
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(201));

    const work = await cloneOf(owner, 'race');
    expect(Number((await git(['rev-list', '--count', 'HEAD'], work)).stdout.trim())).toBe(12 + 1);
    expect((await git(['ls-files', 'race'], work)).stdout.trim().split('\n').filter(Boolean)).toHaveLength(12);
  });

  test('a git push while the API commits to another branch announces only the pushed commits', async () => {
    const owner = await newUser();
    const base = await newRepo(owner, 'mixed');
    const repoId = (await owner.client.get(base)).body.id as number;
    const work = await cloneOf(owner, 'mixed');
    await git(['checkout', '-q', '-b', 'side'], work);
    await git(['-c', 'user.name=Pusher', '-c', 'user.email=pusher@example.com', 'commit', '-q', '--allow-empty', '-m', 'pushed'], work);
    const client = anonymous.as({ token: owner.token });
    const [pushed, ...written] = await Promise.all([
      git(['push', '-q', 'origin', 'side'], work),
      ...Array.from({ length: 4 }, (_, i) => client.post(`${base}/contents/api/${i}.txt`, { content: b64(`${i}\n`) })),
    ]);
    expect(pushed.code).toBe(0);
    expect(written.map((r) => r.status)).toEqual(Array(4).fill(201));

    await recorder.eventMatching((e) => e.subject === 'repository.push' && e.payload.repository?.id === repoId && e.payload.ref === 'refs/heads/side');
    const apiCommits = new Set(written.map((r) => r.body.commit.sha as string));
    for (const sha of apiCommits) {
      await recorder.eventMatching((e) => e.subject === 'repository.push' && e.payload.repository?.id === repoId && e.payload.after === sha);
    }
    // Each API commit was announced once, by its own write; the push announced its branch only.
    const pushes = recorder.events.filter((e) => e.subject === 'repository.push' && e.payload.repository?.id === repoId);
    expect(pushes.filter((e) => e.payload.ref === 'refs/heads/main')).toHaveLength(4);
    expect(pushes.filter((e) => e.payload.ref === 'refs/heads/side').map((e) => e.payload.commits.map((c: { message: string }) => c.message.trim()))).toEqual([['pushed']]);
  });
});
