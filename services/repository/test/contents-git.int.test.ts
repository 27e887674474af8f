// The contents plumbing against real git: reading entries at a ref, writing commits on a
// temporary index, and concurrent writers on one branch never losing a commit.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { RefUpdateConflict, updateRef } from '../src/git/branches.js';
import { entriesAt, lastCommitOf, lastCommitsOfEntries, listTree, resolveRevision } from '../src/git/contents-git.js';
import { readBlob } from '../src/git/objects-git.js';
import { commitTree, writeCommit, type IndexChange } from '../src/git/file-changes-git.js';
import { CatfileCache } from '../src/git/catfile-cache.js';
import { ImmutableCache } from '../src/git/immutable-cache.js';
import { RepositoryObjects } from '../src/git/repository-objects.js';
import { repoFiles } from '../src/git/content-git.js';
import { ProcessPool } from '../src/git/process-pool.js';
import { RefUpdaters } from '../src/git/ref-updater.js';
import { STALE_REF_LOCK_MS } from '../src/git/stale-ref-lock.js';

jest.setTimeout(60_000);

const run = promisify(execFile);
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const sh = async (args: string[]) => (await run('git', ['--git-dir', gitDir, ...args], { env })).stdout.trim();
const ZERO = '0'.repeat(40);
const ada = (time: number) => ({ name: 'Ada', email: 'ada@example.com', time });

let dir: string;
let gitDir: string;
const pool = new ProcessPool();
const catfile = new CatfileCache(pool);
const updaters = new RefUpdaters(pool);

async function commit(parent: string | undefined, changes: IndexChange[], message: string, time = 1_700_000_000) {
  return writeCommit(gitDir, { parent, changes, message, author: ada(time), committer: ada(time), objectFormat: 'sha1' }, (oid) => catfile.object(gitDir, oid));
}

let first: string;
let second: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'anvil-contents-int-'));
  gitDir = join(dir, 'repo.git');
  await run('git', ['init', '--bare', '-q', '-b', 'main', gitDir], { env });
  const one = await commit(undefined, [
    { path: 'README.md', mode: '100644', content: Buffer.from('# hello\n') },
    { path: 'src/a.ts', mode: '100644', content: Buffer.from('a\n') },
    { path: 'bin/run', mode: '100755', content: Buffer.from('#!/bin/sh\n') },
    { path: 'link', mode: '120000', content: Buffer.from('README.md') },
  ], 'First\n');
  await updateRef(gitDir, 'refs/heads/main', one.commitSha, ZERO);
  first = one.commitSha;
  const two = await commit(first, [{ path: 'src/b.ts', mode: '100644', content: Buffer.from([0, 255, 1]) }], 'Second\n', 1_700_000_100);
  await updateRef(gitDir, 'refs/heads/main', two.commitSha, first);
  second = two.commitSha;
  await sh(['tag', 'v1', first]);
});

afterAll(async () => {
  pool.close();
  await rm(dir, { recursive: true, force: true });
});

describe('reading files at a ref', () => {
  it('resolves a branch, a tag and a commit id, and nothing for unknown or odd names', async () => {
    expect(await resolveRevision(gitDir, 'main')).toEqual({ kind: 'branch', name: 'main', commitSha: second });
    expect(await resolveRevision(gitDir, 'v1')).toEqual({ kind: 'tag', name: 'v1', commitSha: first });
    expect(await resolveRevision(gitDir, first.slice(0, 10))).toEqual({ kind: 'commit', name: first, commitSha: first });
    for (const odd of ['nope', '--all', 'main\nv1', '', 'HEAD~1:src']) expect(await resolveRevision(gitDir, odd)).toBeUndefined();
  });

  it('finds entries with their modes and sizes, and the trees on the way', async () => {
    const found = await entriesAt(gitDir, second, ['src', 'src/b.ts', 'bin/run', 'link', 'missing', '*']);
    expect(found.get('src')).toMatchObject({ type: 'tree' });
    expect(found.get('src/b.ts')).toMatchObject({ type: 'blob', mode: '100644', size: 3 });
    expect(found.get('bin/run')).toMatchObject({ mode: '100755' });
    expect(found.get('link')).toMatchObject({ mode: '120000' });
    expect(found.has('missing')).toBe(false);
    expect(found.has('*')).toBe(false); // pathspecs are literal: no glob
    const listed = await listTree(gitDir, found.get('src')!.sha, 'src');
    expect(listed.map((e) => e.path)).toEqual(['src/a.ts', 'src/b.ts']);
    expect([...(await readBlob(gitDir, found.get('src/b.ts')!.sha))]).toEqual([0, 255, 1]);
  });

  it('names the last commit of a path and of each entry of a directory in one walk', async () => {
    expect((await lastCommitOf(gitDir, second, 'README.md'))?.sha).toBe(first);
    expect(await lastCommitOf(gitDir, second, 'src/b.ts')).toMatchObject({ sha: second, message: 'Second\n', committerTime: 1_700_000_100 });
    const root = await lastCommitsOfEntries(gitDir, second, '', ['README.md', 'src', 'bin', 'link']);
    expect(Object.fromEntries([...root].map(([k, v]) => [k, v.sha]))).toEqual({ 'README.md': first, src: second, bin: first, link: first });
  });
});

describe('writing commits without a work tree', () => {
  it('adds, renames and removes paths in one commit on top of the parent', async () => {
    const written = await commit(second, [
      { path: 'README.md', remove: true },
      { path: 'docs/README.md', mode: '100644', content: Buffer.from('# moved\n') },
      { path: 'src/a.ts', remove: true },
      { path: 'src/c.ts', mode: '100644', blobSha: (await entriesAt(gitDir, second, ['src/a.ts'])).get('src/a.ts')!.sha },
    ], 'Reorganise\n');
    expect(await sh(['rev-parse', `${written.commitSha}^`])).toBe(second);
    expect((await sh(['ls-tree', '-r', '--name-only', written.commitSha])).split('\n')).toEqual(['bin/run', 'docs/README.md', 'link', 'src/b.ts', 'src/c.ts']);
    expect(await sh(['cat-file', '-p', `${written.commitSha}:src/c.ts`])).toBe('a');
    expect(await sh(['log', '-1', '--format=%an <%ae> %at %s', written.commitSha])).toBe('Ada <ada@example.com> 1700000000 Reorganise');
    // Nothing moved: the branch still points where it did, and no index was left in the repository.
    expect(await sh(['rev-parse', 'main'])).toBe(second);
  });

  it('lets exactly one of many concurrent writers move the branch from one head; the others are refused and nothing is lost', async () => {
    const head = await sh(['rev-parse', 'main']);
    const before = Number(await sh(['rev-list', '--count', 'main']));
    // Every writer builds on the head it saw; update-ref with that expected old value lets
    // one win and refuses the rest, which would have to rebuild on the new head.
    const outcomes = await Promise.all(Array.from({ length: 16 }, async (_, i) => {
      const written = await commit(head, [{ path: `race/${i}.txt`, mode: '100644', content: Buffer.from(`${i}\n`) }], `Writer ${i}\n`);
      try {
        await updateRef(gitDir, 'refs/heads/main', written.commitSha, head);
        return written.commitSha;
      } catch (err) {
        expect(err).toBeInstanceOf(RefUpdateConflict);
        return undefined;
      }
    }));
    const winners = outcomes.filter(Boolean);
    expect(winners).toHaveLength(1);
    expect(await sh(['rev-parse', 'main'])).toBe(winners[0]);
    expect(Number(await sh(['rev-list', '--count', 'main']))).toBe(before + 1);
    expect(await sh(['rev-parse', 'main^'])).toBe(head);
  });
});

describe('writing objects as git writes them', () => {
  /** The same changes through git's own plumbing: a temporary index, write-tree, commit-tree. */
  async function byGit(parent: string, records: string, message: string, who: { name: string; email: string }) {
    const index = join(dir, `index-${Math.random()}`);
    const withIndex = { ...env, GIT_INDEX_FILE: index };
    await run('git', ['--git-dir', gitDir, 'read-tree', parent], { env: withIndex });
    const update = run('git', ['--git-dir', gitDir, 'update-index', '-z', '--index-info'], { env: withIndex });
    update.child.stdin!.end(records);
    await update;
    const tree = (await run('git', ['--git-dir', gitDir, 'write-tree'], { env: withIndex })).stdout.trim();
    const people = { GIT_AUTHOR_NAME: who.name, GIT_AUTHOR_EMAIL: who.email, GIT_AUTHOR_DATE: '@1700000000 +0000', GIT_COMMITTER_NAME: who.name, GIT_COMMITTER_EMAIL: who.email, GIT_COMMITTER_DATE: '@1700000000 +0000' };
    const committed = run('git', ['--git-dir', gitDir, 'commit-tree', '-F', '-', '-p', parent, tree], { env: { ...env, ...people } });
    committed.child.stdin!.end(message);
    return { tree, commit: (await committed).stdout.trim() };
  }

  it('writes the very blobs, trees and commit git would, for nested, executable, renamed and removed paths', async () => {
    const blob = (await entriesAt(gitDir, second, ['bin/run'])).get('bin/run')!.sha;
    const changes: IndexChange[] = [
      { path: 'src/a.ts', remove: true },
      { path: 'deep/er/still/new.txt', mode: '100644', content: Buffer.from('new\n') },
      { path: 'bin/tool', mode: '100755', blobSha: blob },
      { path: 'src-x', mode: '100644', content: Buffer.from('sorts after src/\n') },
      { path: 'ünïcode name.md', mode: '100644', content: Buffer.from('é\n') },
    ];
    const ours = await commit(second, changes, 'Exact\n');
    // The blobs are ours (git reads them); git's own tree and commit must be the same objects.
    const records = changes.map((c) => ('remove' in c ? `0 ${ZERO}\t${c.path}\0` : `${c.mode} ${'blobSha' in c ? c.blobSha : ours.blobs.get(c.path)!.sha}\t${c.path}\0`)).join('');
    const theirs = await byGit(second, records, 'Exact\n', { name: 'Ada', email: 'ada@example.com' });
    expect(ours.treeSha).toBe(theirs.tree);
    expect(ours.commitSha).toBe(theirs.commit);
    expect(await sh(['cat-file', '-p', `${ours.commitSha}:deep/er/still/new.txt`])).toBe('new');
    await sh(['fsck', '--strict', '--no-dangling']);
  });

  it('remembers what a write stored byte for byte as git reads it, so the next write on the branch asks git for nothing', async () => {
    const memo = new ImmutableCache();
    let asked = 0;
    // The real cat-file cache, counted: every question the objects below put to git.
    const counted = Object.assign(Object.create(catfile) as CatfileCache, {
      object: (at: string, oid: string) => (asked++, catfile.object(at, oid)),
      info: (at: string, oid: string) => (asked++, catfile.info(at, oid)),
    });
    const objects = new RepositoryObjects(counted, gitDir, memo);
    const write = (parent: string, path: string) => writeCommit(gitDir, {
      parent, changes: [{ path, mode: '100644', content: Buffer.from(`${path}\n`) }], message: `Add ${path}\n`,
      author: ada(1_700_000_200), committer: ada(1_700_000_200), objectFormat: 'sha1',
    }, (oid) => objects.object(oid), (type, oid, content) => objects.remember(type, oid, content));

    const one = await write(second, 'kept/deeper/one.txt');
    const stored = [one.commitSha, one.treeSha, ...(await sh(['ls-tree', '-r', '-t', '--object-only', one.commitSha, 'kept'])).split('\n')];
    expect(stored).toHaveLength(5); // the commit, the root tree, kept, kept/deeper and the blob
    for (const oid of stored) {
      const fromGit = (await catfile.object(gitDir, oid))!;
      const remembered = (await objects.object(oid))!;
      expect([remembered.type, remembered.size, remembered.content!.equals(fromGit.content!)]).toEqual([fromGit.type, fromGit.size, true]);
    }

    asked = 0;
    const two = await write(one.commitSha, 'kept/deeper/two.txt');
    expect(asked).toBe(0);
    expect((await sh(['ls-tree', '-r', '--name-only', two.commitSha, 'kept'])).split('\n')).toEqual(['kept/deeper/one.txt', 'kept/deeper/two.txt']);
    await sh(['fsck', '--strict', '--no-dangling']);
  });

  it('remembers a contents write\'s objects only once its ref moved: a write that lost the race leaves nothing remembered', async () => {
    const memo = new ImmutableCache();
    const files = repoFiles(gitDir, new RepositoryObjects(catfile, gitDir, memo), memo, updaters);
    const head = await sh(['rev-parse', 'refs/heads/main']);
    const who = ada(1_700_000_300);
    const write = (path: string) => files.writeCommit({ parent: head, changes: [{ path, mode: '100644', content: Buffer.from(path) }], message: `${path}\n`, author: who, committer: who, objectFormat: 'sha1' });

    const lost = await write('lost.txt');
    await expect(files.updateRef('refs/heads/main', lost.commitSha, ZERO)).rejects.toThrow();
    const won = await write('won.txt');
    await files.updateRef('refs/heads/main', won.commitSha, head);
    expect([memo.has(gitDir, `object:${won.commitSha}`), memo.has(gitDir, `object:${won.treeSha}`)]).toEqual([false, false]);
    files.headMoved('refs/heads/main', { sha: won.commitSha, message: 'won.txt\n', author: who, committer: who });
    expect([memo.has(gitDir, `object:${won.commitSha}`), memo.has(gitDir, `object:${won.treeSha}`)]).toEqual([true, true]);
    expect([memo.has(gitDir, `object:${lost.commitSha}`), memo.has(gitDir, `object:${lost.treeSha}`)]).toEqual([false, false]);
  });

  it('removes a directory left empty, as an index would', async () => {
    const ours = await commit(second, [{ path: 'src/a.ts', remove: true }, { path: 'src/b.ts', remove: true }], 'Empty src\n');
    expect((await sh(['ls-tree', '--name-only', ours.commitSha])).split('\n')).not.toContain('src');
  });

  it('leaves names git would clean up to git commit-tree itself', async () => {
    const tree = await sh(['rev-parse', `${second}^{tree}`]);
    for (const who of [{ name: ' Ada. ', email: '<ada@example.com>' }, { name: 'A<d>a', email: 'ada@example.com' }, { name: 'Ada', email: '' }]) {
      const signature = { ...who, time: 1_700_000_000 };
      const ours = await commitTree(gitDir, { tree, parents: [second], message: 'Who\n', author: signature, committer: signature });
      const theirs = await byGit(second, '', 'Who\n', who);
      expect(ours).toBe(theirs.commit);
    }
  });
});

describe('moving refs: in place as git does, or through one long-lived update-ref', () => {
  it('lets exactly one of many concurrent writers win, and keeps moving refs after refusing one', async () => {
    const head = await sh(['rev-parse', 'main']);
    const outcomes = await Promise.all(Array.from({ length: 8 }, async (_, i) => {
      const written = await commit(head, [{ path: `updater/${i}.txt`, mode: '100644', content: Buffer.from(`${i}\n`) }], `Updater ${i}\n`);
      try {
        await updaters.update(gitDir, [{ ref: 'refs/heads/main', newSha: written.commitSha, oldSha: head }]);
        return written.commitSha;
      } catch (err) {
        expect(err).toBeInstanceOf(RefUpdateConflict);
        return undefined;
      }
    }));
    const winners = outcomes.filter(Boolean);
    expect(winners).toHaveLength(1);
    expect(await sh(['rev-parse', 'main'])).toBe(winners[0]);
    // Create, then delete, a branch through the same updater.
    await updaters.update(gitDir, [{ ref: 'refs/heads/side', newSha: head, oldSha: ZERO }]);
    expect(await sh(['rev-parse', 'side'])).toBe(head);
    await expect(updaters.update(gitDir, [{ ref: 'refs/heads/side', newSha: head, oldSha: ZERO }])).rejects.toBeInstanceOf(RefUpdateConflict);
    await updaters.update(gitDir, [{ ref: 'refs/heads/side', newSha: ZERO, oldSha: head }]);
    await expect(sh(['rev-parse', '--verify', '-q', 'refs/heads/side'])).rejects.toBeDefined();
  });

  it('moves an existing branch as git does, without starting git: git reads the new head, a packed branch too, and no lock is left', async () => {
    const pool = new ProcessPool();
    const inPlace = new RefUpdaters(pool);
    try {
      const head = await sh(['rev-parse', 'main']);
      const next = (await commit(head, [{ path: 'in-place/loose.txt', mode: '100644', content: Buffer.from('loose\n') }], 'Loose\n')).commitSha;
      await inPlace.update(gitDir, [{ ref: 'refs/heads/main', newSha: next, oldSha: head }]);
      expect(await sh(['rev-parse', 'refs/heads/main'])).toBe(next);
      // Packed only: the loose file is gone, git reads packed-refs.
      await sh(['pack-refs', '--all', '--prune']);
      expect(existsSync(join(gitDir, 'refs/heads/main'))).toBe(false);
      const after = (await commit(next, [{ path: 'in-place/packed.txt', mode: '100644', content: Buffer.from('packed\n') }], 'Packed\n')).commitSha;
      await inPlace.update(gitDir, [{ ref: 'refs/heads/main', newSha: after, oldSha: next }]);
      expect(await sh(['rev-parse', 'refs/heads/main'])).toBe(after);
      expect(await sh(['for-each-ref', '--format=%(objectname)', 'refs/heads/main'])).toBe(after);
      expect(existsSync(join(gitDir, 'refs/heads/main.lock'))).toBe(false);
      expect(pool.pidsOf(gitDir, 'update-ref')).toEqual([]);
    } finally {
      pool.close();
    }
  });

  it('refuses a stale expected head in place and leaves the branch and no lock behind', async () => {
    const head = await sh(['rev-parse', 'main']);
    const next = (await commit(head, [{ path: 'in-place/stale.txt', mode: '100644', content: Buffer.from('stale\n') }], 'Stale\n')).commitSha;
    const stale = await sh(['rev-parse', 'main~1']);
    await expect(updaters.update(gitDir, [{ ref: 'refs/heads/main', newSha: next, oldSha: stale }])).rejects.toBeInstanceOf(RefUpdateConflict);
    expect(await sh(['rev-parse', 'main'])).toBe(head);
    expect(existsSync(join(gitDir, 'refs/heads/main.lock'))).toBe(false);
  });

  it('never takes a lock another writer holds: the move waits for git, which refuses it, and the lock stays theirs', async () => {
    const head = await sh(['rev-parse', 'main']);
    const next = (await commit(head, [{ path: 'in-place/locked.txt', mode: '100644', content: Buffer.from('locked\n') }], 'Locked\n')).commitSha;
    const lock = join(gitDir, 'refs/heads/main.lock');
    writeFileSync(lock, '');
    try {
      await expect(updaters.update(gitDir, [{ ref: 'refs/heads/main', newSha: next, oldSha: head }])).rejects.toBeInstanceOf(RefUpdateConflict);
      expect(existsSync(lock)).toBe(true);
      expect(await sh(['rev-parse', 'main'])).toBe(head);
    } finally {
      rmSync(lock, { force: true });
    }
  });

  it('removes a ref lock left an hour ago by a writer that died holding it, and moves the branch', async () => {
    const head = await sh(['rev-parse', 'main']);
    const next = (await commit(head, [{ path: 'in-place/stale-lock.txt', mode: '100644', content: Buffer.from('stale lock\n') }], 'Stale lock\n')).commitSha;
    const lock = join(gitDir, 'refs/heads/main.lock');
    writeFileSync(lock, '');
    const longAgo = new Date(Date.now() - STALE_REF_LOCK_MS - 60_000);
    utimesSync(lock, longAgo, longAgo);
    await updaters.update(gitDir, [{ ref: 'refs/heads/main', newSha: next, oldSha: head }]);
    expect(await sh(['rev-parse', 'main'])).toBe(next);
    expect(readdirSync(join(gitDir, 'refs/heads')).filter((name) => name.includes('.lock') || name.includes('.stale-'))).toEqual([]);
  });

  it('creates and deletes a branch whose lock, or packed-refs\' lock, a writer that died long ago left behind', async () => {
    const head = await sh(['rev-parse', 'main']);
    const longAgo = new Date(Date.now() - STALE_REF_LOCK_MS - 60_000);
    const leaveLock = (lock: string) => {
      writeFileSync(lock, '');
      utimesSync(lock, longAgo, longAgo);
    };
    leaveLock(join(gitDir, 'refs/heads/orphaned.lock'));
    await updaters.update(gitDir, [{ ref: 'refs/heads/orphaned', newSha: head, oldSha: ZERO }]);
    expect(await sh(['rev-parse', 'refs/heads/orphaned'])).toBe(head);
    // Packed, so deleting it rewrites packed-refs under packed-refs.lock.
    await sh(['pack-refs', '--all', '--prune']);
    leaveLock(join(gitDir, 'refs/heads/orphaned.lock'));
    leaveLock(join(gitDir, 'packed-refs.lock'));
    await updaters.update(gitDir, [{ ref: 'refs/heads/orphaned', newSha: ZERO, oldSha: head }]);
    await expect(sh(['rev-parse', '--verify', '-q', 'refs/heads/orphaned'])).rejects.toBeDefined();
    const leftOver = (d: string) => readdirSync(d).filter((name) => name.endsWith('.lock'));
    expect([...leftOver(gitDir), ...leftOver(join(gitDir, 'refs/heads'))]).toEqual([]);
  });

  it('leaves a fresh lock on a branch it creates alone: git refuses the creation and the lock stays its writer\'s', async () => {
    const head = await sh(['rev-parse', 'main']);
    const lock = join(gitDir, 'refs/heads/busy.lock');
    writeFileSync(lock, '');
    try {
      await expect(updaters.update(gitDir, [{ ref: 'refs/heads/busy', newSha: head, oldSha: ZERO }])).rejects.toBeInstanceOf(RefUpdateConflict);
      expect(existsSync(lock)).toBe(true);
    } finally {
      rmSync(lock, { force: true });
    }
  });

  it('leaves a repository that keeps reflogs to git, which logs the move', async () => {
    const other = join(dir, 'reflog.git');
    await run('git', ['init', '--bare', '-q', '-b', 'main', other], { env });
    const inOther = (args: string[]) => run('git', ['--git-dir', other, ...args], { env }).then((r) => r.stdout.trim());
    const one = await writeCommit(other, { changes: [{ path: 'a', mode: '100644', content: Buffer.from('a') }], message: 'One\n', author: ada(1), committer: ada(1), objectFormat: 'sha1' }, (oid) => catfile.object(other, oid));
    await inOther(['update-ref', '--create-reflog', 'refs/heads/main', one.commitSha]);
    const two = await writeCommit(other, { parent: one.commitSha, changes: [{ path: 'b', mode: '100644', content: Buffer.from('b') }], message: 'Two\n', author: ada(2), committer: ada(2), objectFormat: 'sha1' }, (oid) => catfile.object(other, oid));
    await updaters.update(other, [{ ref: 'refs/heads/main', newSha: two.commitSha, oldSha: one.commitSha }]);
    expect(await inOther(['rev-parse', 'main'])).toBe(two.commitSha);
    expect((await inOther(['reflog', 'show', '--format=%H', 'refs/heads/main'])).split('\n')).toEqual([two.commitSha, one.commitSha]);
  });

  it('lets exactly one writer win when moves in place race git update-ref processes from the same head', async () => {
    const head = await sh(['rev-parse', 'main']);
    const commits = await Promise.all(Array.from({ length: 8 }, async (_, i) =>
      (await commit(head, [{ path: `race-git/${i}.txt`, mode: '100644', content: Buffer.from(`${i}\n`) }], `Racer ${i}\n`)).commitSha));
    const outcomes = await Promise.all(commits.map(async (sha, i) => {
      try {
        // Odd racers are other processes (a push, another replica); even ones move in place.
        if (i % 2) await sh(['update-ref', 'refs/heads/main', sha, head]);
        else await updaters.update(gitDir, [{ ref: 'refs/heads/main', newSha: sha, oldSha: head }]);
        return sha;
      } catch {
        return undefined;
      }
    }));
    const winners = outcomes.filter(Boolean);
    expect(winners).toHaveLength(1);
    expect(await sh(['rev-parse', 'main'])).toBe(winners[0]);
    expect(existsSync(join(gitDir, 'refs/heads/main.lock'))).toBe(false);
  });

  it('refuses a ref or id that is not one, without asking git', async () => {
    for (const ref of ['refs/heads/a\nupdate refs/heads/b', '--force', 'main', 'refs/heads/a b']) {
      await expect(updaters.update(gitDir, [{ ref, newSha: second, oldSha: ZERO }])).rejects.toBeInstanceOf(RefUpdateConflict);
    }
  });
});
