// Commit plumbing against real git in a temporary directory: paging and counting a range,
// files and line stats for a page (merges against their first parent), the raw objects,
// and the diff and patch text of one commit.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { commitIds, countCommits, filesOf, rawDiff, readCommits, statsOf } from '../src/git/commits.js';
import { resolveCommit as resolveRevision } from '../src/git/refs.js';

const run = promisify(execFile);
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };
let dir: string;
let work: string;
let gitDir: string;
const sh = async (...args: string[]) => (await run('git', args, { cwd: work, env })).stdout.trim();
const shas: Record<string, string> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'anvil-commits-int-'));
  work = join(dir, 'work');
  await mkdir(work);
  await sh('init', '-q', '-b', 'main');
  await writeFile(join(work, 'a b.txt'), 'one\n');
  await sh('add', '-A');
  await sh('commit', '-qm', 'root');
  shas.root = await sh('rev-parse', 'HEAD');
  await sh('checkout', '-qb', 'side');
  await mkdir(join(work, 'dir'));
  await writeFile(join(work, 'dir', 'ü.txt'), 'x\ny\n');
  await sh('add', '-A');
  await sh('commit', '-qm', 'side');
  shas.side = await sh('rev-parse', 'HEAD');
  await sh('checkout', '-q', 'main');
  await writeFile(join(work, 'a b.txt'), 'one\ntwo\n');
  await sh('commit', '-qam', 'main change');
  shas.change = await sh('rev-parse', 'HEAD');
  await sh('merge', '-q', '--no-edit', 'side');
  shas.merge = await sh('rev-parse', 'HEAD');
  gitDir = join(work, '.git');
}, 30_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('commit plumbing', () => {
  it('counts and pages a range, newest first, with exclusions and a path', async () => {
    const range = { start: shas.merge };
    expect(await countCommits(gitDir, range)).toBe(4);
    expect(await commitIds(gitDir, range, 1, 2)).toHaveLength(2);
    expect(await commitIds(gitDir, { start: shas.merge, exclude: [shas.side] }, 0, 10)).toEqual([shas.merge, shas.change]);
    expect(await commitIds(gitDir, { start: shas.merge, path: 'a b.txt' }, 0, 10)).toEqual([shas.change, shas.root]);
  });

  it('resolves branches and short shas, nothing else', async () => {
    expect(await resolveRevision(gitDir, 'side')).toBe(shas.side);
    expect(await resolveRevision(gitDir, shas.root.slice(0, 10))).toBe(shas.root);
    expect(await resolveRevision(gitDir, 'missing')).toBeUndefined();
  });

  it('reads raw commits in the order asked, with parents and the full message', async () => {
    const [merge, root] = await readCommits(gitDir, [shas.merge, shas.root]);
    expect(merge.parents).toEqual([shas.change, shas.side]);
    expect(merge.message).toBe('Merge branch \'side\'\n');
    expect(root).toMatchObject({ sha: shas.root, parents: [], author: { name: 'Ada', email: 'ada@example.com' } });
  });

  it('gives files and stats for a page, a merge against its first parent, odd file names intact', async () => {
    const ids = [shas.merge, shas.change, shas.root];
    const files = await filesOf(gitDir, ids);
    expect(files.get(shas.merge)).toEqual([{ filename: 'dir/ü.txt', status: 'added' }]);
    expect(files.get(shas.change)).toEqual([{ filename: 'a b.txt', status: 'modified' }]);
    expect(files.get(shas.root)).toEqual([{ filename: 'a b.txt', status: 'added' }]);
    const stats = await statsOf(gitDir, ids);
    expect(stats.get(shas.merge)).toEqual({ additions: 2, deletions: 0 });
    expect(stats.get(shas.change)).toEqual({ additions: 1, deletions: 0 });
  });

  it('prints a commit\'s diff and patch as git does', async () => {
    expect(await rawDiff(gitDir, shas.change, shas.root, 'diff')).toBe(`${await sh('diff', '-M', shas.root, shas.change)}\n`);
    const patch = await rawDiff(gitDir, shas.root, undefined, 'patch');
    expect(patch).toContain('Subject: [PATCH] root');
    await expect(rawDiff(gitDir, '--output=/tmp/x', undefined, 'diff')).rejects.toThrow('not an object id');
  });
});
