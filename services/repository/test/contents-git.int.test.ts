// The contents plumbing against real git: reading entries at a ref, writing commits on a
// temporary index, and concurrent writers on one branch never losing a commit.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { RefUpdateConflict, updateRef } from '../src/git/branches.js';
import { entriesAt, lastCommitOf, lastCommitsOfEntries, listTree, resolveRevision } from '../src/git/contents-git.js';
import { readBlob } from '../src/git/objects-git.js';
import { writeCommit, type IndexChange } from '../src/git/file-changes-git.js';

jest.setTimeout(60_000);

const run = promisify(execFile);
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
const sh = async (args: string[]) => (await run('git', ['--git-dir', gitDir, ...args], { env })).stdout.trim();
const ZERO = '0'.repeat(40);
const ada = (time: number) => ({ name: 'Ada', email: 'ada@example.com', time });

let dir: string;
let gitDir: string;

async function commit(parent: string | undefined, changes: IndexChange[], message: string, time = 1_700_000_000) {
  return writeCommit(gitDir, { parent, changes, message, author: ada(time), committer: ada(time), objectFormat: 'sha1' });
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

describe('writing commits on a temporary index', () => {
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
