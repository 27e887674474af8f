// Git smart HTTP through the gateway with the real `git` CLI: clone, commit, push with a
// token, clone again and see the commit; anonymous clones of public repositories; private
// repositories invisible; pushes without write permission refused; both wire protocols
// and gzipped requests; a clone abandoned half way leaves no git behind. git never prompts
// (GIT_TERMINAL_PROMPT=0, a temporary HOME).
import { randomBytes } from 'node:crypto';
import { access, mkdtemp, readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, jest, test } from '@jest/globals';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import type { EventRecorder } from '../support/event-recorder.js';
import { cloneUrl, gitIn } from '../support/git-cli.js';
import type { RunningSystem } from '../support/system.js';

jest.setTimeout(90_000);

let e2e: E2e;
let system: RunningSystem;
let anonymous: ApiClient;
let home: string;
let recorder: EventRecorder;
const eventMatching: EventRecorder['eventMatching'] = (match) => recorder.eventMatching(match);
const git = (args: string[], cwd = home) => gitIn(home, args, cwd);
const urlFor = (path: string, user?: string, secret?: string) => cloneUrl(system.baseUrl, path, user, secret);

beforeAll(async () => {
  e2e = await bootE2e({ shared: true, prefix: 'git-user', gitHome: true, events: 'repository' });
  ({ system, anonymous, home, recorder } = e2e);
}, 180_000);

afterAll(() => e2e?.close());

/** A fresh user known to the repository service, with a token that may write repositories. */
const newUser = () => e2e.newWriter();

let workdirs = 0;
async function workdir(): Promise<string> {
  workdirs += 1;
  return mkdtemp(join(home, `w${workdirs}-`));
}

describe('git over HTTP', () => {
  test('clone an empty repository, commit, push with a token, clone again and see the commit', async () => {
    const { username, client, token } = await newUser();
    expect((await client.post('/user/repos', { name: 'project' })).status).toBe(201);

    const dir = await workdir();
    const clone = await git(['clone', urlFor(`${username}/project.git`, username, token), 'project'], dir);
    expect(clone.stderr).toContain('empty repository');
    expect(clone.code).toBe(0);
    const work = join(dir, 'project');
    await writeFile(join(work, 'hello.txt'), 'hello from git\n');
    expect((await git(['add', 'hello.txt'], work)).code).toBe(0);
    expect((await git(['commit', '-m', 'First commit'], work)).code).toBe(0);
    const push = await git(['push', 'origin', 'HEAD:refs/heads/main'], work);
    expect(push.stderr).not.toContain('rejected');
    expect(push.code).toBe(0);

    const repo = await client.get(`/repos/${username}/project`);
    expect(repo.body).toMatchObject({ empty: false, default_branch: 'main' });

    // The push is announced: repository.branch.created and repository.push with the commit.
    const pushed = await eventMatching((e) => e.subject === 'repository.push' && e.payload.repository?.id === repo.body.id);
    expect(pushed.payload).toMatchObject({ ref: 'refs/heads/main', before: '0'.repeat(40), pusher: { login: username }, total_commits: 1 });
    expect(pushed.payload.commits[0]).toMatchObject({ message: 'First commit\n', added: ['hello.txt'], author: { name: 'E2E', email: 'e2e@example.com' } });
    const branch = await eventMatching((e) => e.subject === 'repository.branch.created' && e.payload.repository?.id === repo.body.id);
    expect(branch.payload).toMatchObject({ name: 'main', sha: pushed.payload.after });

    const again = await workdir();
    expect((await git(['clone', urlFor(`${username}/project`), 'copy'], again)).code).toBe(0);
    expect(await readFile(join(again, 'copy', 'hello.txt'), 'utf8')).toBe('hello from git\n');
    const log = await git(['log', '--format=%s'], join(again, 'copy'));
    expect(log.stdout.trim()).toBe('First commit');
  });

  test('the first push of another branch to an empty repository makes it the default branch; tags pushed and deleted are announced', async () => {
    const { username, client, token } = await newUser();
    expect((await client.post('/user/repos', { name: 'develop-first' })).status).toBe(201);
    const dir = await workdir();
    expect((await git(['init', 'src'], dir)).code).toBe(0);
    const work = join(dir, 'src');
    await writeFile(join(work, 'a.txt'), 'a\n');
    await git(['add', '.'], work);
    await git(['commit', '-m', 'on develop'], work);
    expect((await git(['push', urlFor(`${username}/develop-first.git`, username, token), 'HEAD:refs/heads/develop'], work)).code).toBe(0);
    const repo = await client.get(`/repos/${username}/develop-first`);
    expect(repo.body).toMatchObject({ empty: false, default_branch: 'develop' });

    // Tags pushed and deleted are announced too.
    const remote = urlFor(`${username}/develop-first.git`, username, token);
    expect((await git(['tag', '-a', 'v1.0', '-m', 'Release 1.0'], work)).code).toBe(0);
    expect((await git(['push', remote, 'refs/tags/v1.0'], work)).code).toBe(0);
    const created = await eventMatching((e) => e.subject === 'repository.tag.created' && e.payload.repository?.id === repo.body.id);
    expect(created.payload).toMatchObject({ name: 'v1.0', ref: 'refs/tags/v1.0', pusher: { login: username } });
    expect((await git(['push', remote, ':refs/tags/v1.0'], work)).code).toBe(0);
    const deleted = await eventMatching((e) => e.subject === 'repository.tag.deleted' && e.payload.repository?.id === repo.body.id);
    expect(deleted.payload).toMatchObject({ name: 'v1.0', sha: created.payload.sha });
  });

  test('anyone may clone a public repository; a private one is invisible to others', async () => {
    const owner = await newUser();
    const other = await newUser();
    expect((await owner.client.post('/user/repos', { name: 'open', auto_init: true })).status).toBe(201);
    expect((await owner.client.post('/user/repos', { name: 'closed', auto_init: true, private: true })).status).toBe(201);
    const dir = await workdir();

    expect((await git(['clone', urlFor(`${owner.username}/open.git`), 'open'], dir)).code).toBe(0);
    expect(await readFile(join(dir, 'open', 'README.md'), 'utf8')).toContain('# open');

    // Anonymous: asked for credentials (and git cannot prompt).
    const anon = await git(['clone', urlFor(`${owner.username}/closed.git`), 'anon'], dir);
    expect(anon.code).not.toBe(0);
    expect(anon.stderr).toMatch(/could not read Username|Authentication failed/);
    // Another user: not found.
    const stranger = await git(['clone', urlFor(`${owner.username}/closed.git`, other.username, other.token), 'stranger'], dir);
    expect(stranger.code).not.toBe(0);
    expect(stranger.stderr).toMatch(/not found|404/);
    // The owner with a password, as git's Basic auth sends it.
    expect((await git(['clone', urlFor(`${owner.username}/closed.git`, owner.username, owner.password), 'mine'], dir)).code).toBe(0);
  });

  test('a wrong password is refused with 401, and a push without write permission is refused', async () => {
    const owner = await newUser();
    const reader = await newUser();
    // Private: git sends the credentials in the URL only after the server asks for them.
    expect((await owner.client.post('/user/repos', { name: 'guarded', auto_init: true, private: true })).status).toBe(201);
    expect((await owner.client.put(`/repos/${owner.username}/guarded/collaborators/${reader.username}`, { permission: 'read' })).status).toBe(204);
    const dir = await workdir();

    const wrong = await git(['clone', urlFor(`${owner.username}/guarded.git`, owner.username, 'not-the-password'), 'wrong'], dir);
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/Authentication failed|401/);

    expect((await git(['clone', urlFor(`${owner.username}/guarded.git`, reader.username, reader.token), 'guarded'], dir)).code).toBe(0);
    const work = join(dir, 'guarded');
    await writeFile(join(work, 'sneaky.txt'), 'not allowed\n');
    await git(['add', '.'], work);
    await git(['commit', '-m', 'sneaky'], work);
    const push = await git(['push', 'origin', 'HEAD'], work);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/403|denied/);

    // Anonymous pushes are asked for credentials.
    const anonPush = await git(['push', urlFor(`${owner.username}/guarded.git`), 'HEAD:refs/heads/x'], work);
    expect(anonPush.code).not.toBe(0);

    // Once granted write, the same push lands.
    expect((await owner.client.put(`/repos/${owner.username}/guarded/collaborators/${reader.username}`, { permission: 'write' })).status).toBe(204);
    expect((await git(['push', 'origin', 'HEAD'], work)).code).toBe(0);
  });

  test('a push lands on a branch whose lock a writer that died an hour ago left behind, and the lock is gone', async () => {
    const { username, client, token } = await newUser();
    expect((await client.post('/user/repos', { name: 'locked', auto_init: true })).status).toBe(201);
    const dir = await workdir();
    expect((await git(['clone', urlFor(`${username}/locked.git`, username, token), 'locked'], dir)).code).toBe(0);
    const work = join(dir, 'locked');
    await writeFile(join(work, 'after.txt'), 'after the crash\n');
    await git(['add', 'after.txt'], work);
    await git(['commit', '-m', 'After the crash'], work);
    // What a receive-pack killed while it held the ref's lock leaves on the server.
    const lock = join(system.env.ANVIL_DATA_DIR!, 'repositories', username.toLowerCase(), 'locked.git', 'refs', 'heads', 'main.lock');
    await writeFile(lock, '');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000);
    await utimes(lock, twoHoursAgo, twoHoursAgo);

    const push = await git(['push', 'origin', 'HEAD'], work);
    expect(push.stderr).not.toContain('cannot lock');
    expect(push.code).toBe(0);
    const head = (await git(['rev-parse', 'HEAD'], work)).stdout.trim();
    expect((await client.get(`/repos/${username}/locked/branches/main`)).body).toMatchObject({ commit: { id: head } });
    await expect(access(lock)).rejects.toThrow();
  });

  test('clones and fetches work over both wire protocols, also when git gzips a long negotiation', async () => {
    const { username, client, token } = await newUser();
    expect((await client.post('/user/repos', { name: 'protocols', auto_init: true })).status).toBe(201);
    const dir = await workdir();
    const url = urlFor(`${username}/protocols.git`, username, token);
    for (const version of ['0', '2']) {
      expect((await git(['-c', `protocol.version=${version}`, 'clone', url, `v${version}`], dir)).code).toBe(0);
      // Thirty commits the server has not seen make the fetch's "have" lines pass the
      // 1 KiB above which git gzips its request.
      const mine = join(dir, `v${version}`);
      for (let i = 0; i < 30; i++) await git(['commit', '--allow-empty', '-m', `local ${i}`], mine);
    }
    const other = join(dir, 'other');
    expect((await git(['clone', url, 'other'], dir)).code).toBe(0);
    await writeFile(join(other, 'news.txt'), 'news\n');
    await git(['add', 'news.txt'], other);
    await git(['commit', '-m', 'News'], other);
    expect((await git(['push', 'origin', 'HEAD'], other)).code).toBe(0);
    const pushed = (await git(['rev-parse', 'HEAD'], other)).stdout.trim();

    for (const version of ['0', '2']) {
      const mine = join(dir, `v${version}`);
      const fetched = await git(['-c', `protocol.version=${version}`, 'fetch', 'origin'], mine);
      expect(fetched.stderr).not.toContain('fatal');
      expect(fetched.code).toBe(0);
      expect((await git(['rev-parse', 'origin/main'], mine)).stdout.trim()).toBe(pushed);
      expect((await git(['cat-file', '-p', 'origin/main:news.txt'], mine)).stdout).toBe('news\n');
    }
  });

  test('a clone abandoned half way leaves no git process behind on the server', async () => {
    const { username, client, token } = await newUser();
    expect((await client.post('/user/repos', { name: 'big' })).status).toBe(201);
    const dir = await workdir();
    const work = join(dir, 'big');
    await git(['init', work], dir);
    // 32 MiB that cannot be compressed, more than the connections between the server's git
    // and this test can buffer, so git is still writing when the client goes away.
    for (let i = 0; i < 4; i++) await writeFile(join(work, `blob-${i}.bin`), randomBytes(8 * 1024 * 1024));
    // Stored uncompressed: deflating random bytes would only cost the test time.
    await git(['-c', 'core.compression=0', 'add', '.'], work);
    await git(['commit', '-m', 'Big'], work);
    const head = (await git(['rev-parse', 'HEAD'], work)).stdout.trim();
    expect((await git(['-c', 'core.compression=0', 'push', urlFor(`${username}/big.git`, username, token), 'HEAD:refs/heads/main'], work)).code).toBe(0);

    const uploadPacks = async () => {
      const found: string[] = [];
      for (const pid of (await readdir('/proc')).filter((p) => /^\d+$/.test(p))) {
        const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
        if (cmdline.includes('upload-pack') && cmdline.includes(`/${username}/big.git`)) found.push(pid);
      }
      return found;
    };
    const waitFor = async (what: string, ok: () => Promise<boolean>) => {
      for (let i = 0; i < 200 && !(await ok()); i++) await new Promise((r) => setTimeout(r, 50));
      if (!(await ok())) throw new Error(`timed out waiting until ${what}`);
    };

    // A protocol v2 fetch of everything, read no further than the response's headers.
    const pkt = (line: string) => (line.length + 4).toString(16).padStart(4, '0') + line;
    const body = `${pkt('command=fetch\n')}0001${pkt('no-progress\n')}${pkt(`want ${head}\n`)}${pkt('done\n')}0000`;
    const req = request(new URL(`${username}/big.git/git-upload-pack`, system.baseUrl), {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${username}:${token}`).toString('base64')}`,
        'content-type': 'application/x-git-upload-pack-request', 'git-protocol': 'version=2',
      },
    });
    const response = new Promise<number>((resolve, reject) => {
      req.on('response', (res) => {
        res.pause();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
    });
    req.end(body);
    expect(await response).toBe(200);
    await waitFor('git upload-pack runs', async () => (await uploadPacks()).length > 0);
    req.destroy();
    await waitFor('no git upload-pack is left', async () => (await uploadPacks()).length === 0);

    // The repository still answers git afterwards.
    const refs = await git(['ls-remote', urlFor(`${username}/big.git`, username, token)], dir);
    expect(refs.stdout).toContain(`${head}\trefs/heads/main`);
  });

  test('a push whose client leaves while waiting for its turn does not hold up the writes after it', async () => {
    const { username, client, token } = await newUser();
    expect((await client.post('/user/repos', { name: 'queued', auto_init: true })).status).toBe(201);
    const receivePack = () => {
      const req = request(new URL(`${username}/queued.git/git-receive-pack`, system.baseUrl), {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${username}:${token}`).toString('base64')}`,
          'content-type': 'application/x-git-receive-pack-request', 'transfer-encoding': 'chunked',
        },
      });
      const answered = new Promise<number>((resolve, reject) => {
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        req.on('error', reject);
      });
      // Half a pkt-line: the request is on its way (the gateway forwards it once body bytes
      // flow) and git waits for the rest.
      req.write('00');
      return { req, answered };
    };

    // The gateway remembers the credential and the repository after this, so both pushes
    // below reach the repository service within milliseconds.
    expect((await git(['ls-remote', urlFor(`${username}/queued.git`, username, token)])).code).toBe(0);
    // A slow pusher holds the repository's write turn: its git waits for the rest of its body.
    const slow = receivePack();
    const receivePacks = async () => {
      let found = 0;
      for (const pid of (await readdir('/proc')).filter((p) => /^\d+$/.test(p))) {
        const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
        if (cmdline.includes('receive-pack') && cmdline.includes(`/${username}/queued.git`)) found += 1;
      }
      return found;
    };
    for (let i = 0; i < 200 && (await receivePacks()) === 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await receivePacks()).toBe(1);
    // A second push queues behind it, and its client goes away (a killed gateway, a git
    // interrupted with Ctrl-C) before the repository service ever reads its body.
    const leaving = receivePack();
    leaving.answered.catch(() => undefined);
    // Time for the second request to reach the queue (nothing outside shows it waiting).
    await new Promise((resolve) => setTimeout(resolve, 300));
    leaving.req.destroy();
    // The slow pusher ends its body with no commands: its turn ends.
    slow.req.end('00');
    expect(await slow.answered).toBe(200);

    // A write after them lands. Before, the abandoned push took its turn and its git waited
    // for a body that never came, holding the turn: every later write of the repository hung.
    const after = await Promise.race([
      client.post(`/repos/${username}/queued/contents/after.txt`, { content: Buffer.from('after\n').toString('base64'), message: 'after' }).then((res) => res.status),
      new Promise((resolve) => setTimeout(() => resolve('no answer within 20 s'), 20_000)),
    ]);
    expect(after).toBe(201);
  });
});
