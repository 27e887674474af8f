// The cat-file cache against real git: long-lived processes shared by concurrent readers,
// surviving a killed process, forgetting a deleted repository, finding objects written after
// they started, and staying within their bounds.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { CatfileCache } from '../src/git/catfile-cache.js';
import { isMissingRepository } from '../src/git/command.js';
import { runAsWriter } from '../src/domain/write-turn.js';
import { RepositoryObjects } from '../src/git/repository-objects.js';
import { RepositoryStorage } from '../src/git/storage.js';

jest.setTimeout(60_000);

const run = promisify(execFile);
const env = {
  ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com',
};

async function gitIn(gitDir: string, args: string[], input?: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', ['--git-dir', gitDir, ...args], { env, maxBuffer: 64 << 20, encoding: 'utf8' }, (err, stdout) => (err ? reject(err) : resolve(stdout.trim())));
    child.stdin!.on('error', () => {}); // git may exit before it reads stdin (EPIPE)
    child.stdin!.end(input ?? '');
  });
}

const writeBlob = (gitDir: string, bytes: Buffer | string) => gitIn(gitDir, ['hash-object', '-w', '--stdin'], bytes);

/** Resolves once `check` holds; the 5 s hang detector is the test's own timeout. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 20));
}

let dir: string;
let storage: RepositoryStorage;
let gitDir: string;
const caches: CatfileCache[] = [];

function newCache(options?: ConstructorParameters<typeof CatfileCache>[0]): CatfileCache {
  const cache = new CatfileCache(options);
  caches.push(cache);
  return cache;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'anvil-catfile-int-'));
  storage = new RepositoryStorage(join(dir, 'repositories'));
  gitDir = await storage.init('ada', 'notes', 'main');
});

afterEach(() => {
  for (const cache of caches.splice(0)) cache.close();
});

afterAll(async () => {
  storage.catfile.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the cat-file cache', () => {
  it('answers many concurrent readers of one repository from one process per kind', async () => {
    const cache = newCache();
    const blobs = await Promise.all(Array.from({ length: 40 }, async (_, i) => {
      const bytes = randomBytes(1000 + i * 997);
      return { bytes, oid: await writeBlob(gitDir, bytes) };
    }));
    const read = await Promise.all(blobs.flatMap(({ oid }) => [cache.object(gitDir, oid), cache.info(gitDir, oid)]));
    blobs.forEach(({ bytes, oid }, i) => {
      expect(read[2 * i]).toEqual({ oid, type: 'blob', size: bytes.length, content: bytes });
      expect(read[2 * i + 1]).toEqual({ oid, type: 'blob', size: bytes.length });
    });
    expect(cache.pidsOf(gitDir)).toHaveLength(2);
  });

  it('gives the reads of a write turn processes of their own, never queued behind other reads', async () => {
    const cache = newCache();
    const oid = await writeBlob(gitDir, 'lanes\n');
    await cache.object(gitDir, oid);
    const readers = cache.pidsOf(gitDir);
    const read = await runAsWriter('ada/notes', () => cache.object(gitDir, oid));
    expect(read?.content?.toString()).toBe('lanes\n');
    const all = cache.pidsOf(gitDir);
    expect(all).toHaveLength(2);
    expect(all).toEqual(expect.arrayContaining(readers));
  });

  it('answers a missing object as missing and keeps answering the requests behind it', async () => {
    const cache = newCache();
    const oid = await writeBlob(gitDir, 'present\n');
    const [missing, present] = await Promise.all([cache.object(gitDir, '1'.repeat(40)), cache.object(gitDir, oid)]);
    expect(missing).toBeUndefined();
    expect(present?.content?.toString()).toBe('present\n');
  });

  it('refuses anything but an object id without asking git', async () => {
    const cache = newCache();
    for (const odd of ['HEAD', 'main', '--batch-all-objects', `${'a'.repeat(40)}\n${'b'.repeat(40)}`, 'a'.repeat(39)]) {
      expect(await cache.object(gitDir, odd)).toBeUndefined();
      expect(await cache.info(gitDir, odd)).toBeUndefined();
    }
    expect(await cache.infoAtPath(gitDir, 'a'.repeat(40), 'x\ny')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('reads the entry at a path with spaces in a commit', async () => {
    const blob = await writeBlob(gitDir, 'spaced\n');
    const tree = await gitIn(gitDir, ['mktree'], `100644 blob ${blob}\tmy file.txt\n`);
    const commit = await gitIn(gitDir, ['commit-tree', '-m', 'spaces', tree]);
    const cache = newCache();
    expect(await cache.infoAtPath(gitDir, commit, 'my file.txt')).toEqual({ oid: blob, type: 'blob', size: 7 });
    expect(await cache.infoAtPath(gitDir, commit, 'no such file')).toBeUndefined();
    const objects = new RepositoryObjects(cache, gitDir);
    expect(await objects.list(commit, '')).toEqual([{ mode: '100644', type: 'blob', sha: blob, size: 7, path: 'my file.txt' }]);
  });

  it('finishes a read whose process was killed in the middle of it, and starts a new process', async () => {
    const cache = newCache();
    const bytes = randomBytes(8 << 20);
    const oid = await writeBlob(gitDir, bytes);
    await cache.info(gitDir, oid);
    const reading = cache.object(gitDir, oid);
    const killed = cache.pidsOf(gitDir);
    for (const pid of killed) process.kill(pid, 'SIGKILL');
    const read = await reading;
    expect(read?.content?.equals(bytes)).toBe(true);
    for (const pid of killed) expect(cache.pidsOf(gitDir)).not.toContain(pid);
    expect((await cache.info(gitDir, oid))?.size).toBe(bytes.length);
  });

  it('finds objects written after its process started, loose and packed', async () => {
    const cache = newCache();
    const first = await writeBlob(gitDir, 'before\n');
    expect((await cache.object(gitDir, first))?.content?.toString()).toBe('before\n');
    const pids = cache.pidsOf(gitDir);
    const loose = await writeBlob(gitDir, 'after, loose\n');
    expect((await cache.object(gitDir, loose))?.content?.toString()).toBe('after, loose\n');
    // A new pack arrives as a push would bring it.
    const other = await mkdtemp(join(dir, 'source-'));
    await run('git', ['init', '--bare', '-q', other], { env });
    const packed = await writeBlob(other, 'after, packed\n');
    const pack = await new Promise<Buffer>((resolve, reject) => {
      const child = execFile('git', ['--git-dir', other, 'pack-objects', '--stdout'], { env, encoding: 'buffer' }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
      child.stdin!.end(`${packed}\n`);
    });
    await gitIn(gitDir, ['index-pack', '--stdin'], pack);
    expect((await cache.object(gitDir, packed))?.content?.toString()).toBe('after, packed\n');
    expect(cache.pidsOf(gitDir)).toEqual(pids);
  });

  it('stops answering for a repository deleted while its processes run', async () => {
    const doomed = await storage.init('ada', 'doomed', 'main');
    const oid = await writeBlob(doomed, 'soon gone\n');
    expect((await storage.objects(doomed).blob(oid))?.toString()).toBe('soon gone\n');
    const pids = storage.catfile.pidsOf(doomed);
    expect(pids.length).toBeGreaterThan(0);
    await storage.remove('ada', 'doomed');
    expect(storage.catfile.pidsOf(doomed)).toEqual([]);
    // Told apart from other failures of git: the service answers it as a repository not found.
    const gone = await storage.objects(doomed).blob(oid).then(() => undefined, (err: unknown) => err);
    expect(String(gone)).toMatch(/cat-file/);
    expect(isMissingRepository(gone)).toBe(true);
    // Created again under the same name, it holds only its own objects.
    const again = await storage.init('ada', 'doomed', 'main');
    expect(await storage.objects(again).blob(oid)).toBeUndefined();
  });

  it('keeps at most its bound of processes, closing the least recently used', async () => {
    const cache = newCache({ maxProcesses: 2 });
    const dirs = await Promise.all(['a', 'b', 'c'].map((name) => storage.init('bound', name, 'main')));
    const oids = await Promise.all(dirs.map((d) => writeBlob(d, 'x\n')));
    for (const [i, d] of dirs.entries()) expect((await cache.object(d, oids[i]))?.size).toBe(2);
    expect(cache.size).toBe(2);
    expect(cache.pidsOf(dirs[0])).toEqual([]);
    expect((await cache.object(dirs[0], oids[0]))?.size).toBe(2);
  });

  it('closes processes that sit idle', async () => {
    const cache = newCache({ idleMs: 200 });
    const oid = await writeBlob(gitDir, 'idle\n');
    await cache.object(gitDir, oid);
    expect(cache.size).toBe(1);
    await until(() => cache.size === 0);
    expect((await cache.object(gitDir, oid))?.size).toBe(5);
  });
});
