// A history walked through the cat-file cache lists what `git rev-list` lists, in its
// order: merges, branches whose dates interleave, equal dates and a clock that went back.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { CatfileCache } from '../src/git/catfile-cache.js';
import { walkHistory } from '../src/git/history.js';
import { RepositoryObjects } from '../src/git/repository-objects.js';

jest.setTimeout(60_000);

let dir: string;
let gitDir: string;
const cache = new CatfileCache();

function sh(args: string[], date = 1_700_000_000): Promise<string> {
  const stamp = `@${1_700_000_000 + date} +0000`;
  const env = {
    ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com',
    GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com', GIT_AUTHOR_DATE: stamp, GIT_COMMITTER_DATE: stamp,
  };
  return new Promise((resolve, reject) => {
    const child = execFile('git', ['--git-dir', gitDir, ...args], { env }, (err, stdout) => (err ? reject(err) : resolve(stdout.trim())));
    child.stdin!.end();
  });
}

async function commit(parents: string[], message: string, date: number): Promise<string> {
  const tree = await sh(['mktree'], date);
  return sh(['commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-m', message], date);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'anvil-history-int-'));
  gitDir = join(dir, 'repo.git');
  await new Promise((r) => execFile('git', ['init', '--bare', '-q', gitDir], r));
});

afterAll(async () => {
  cache.close();
  await rm(dir, { recursive: true, force: true });
});

describe('walking a history through the cat-file cache', () => {
  it('lists the commits of merges, interleaved branches, equal dates and skewed clocks in rev-list order', async () => {
    const root = await commit([], 'root', 1000);
    let left = root;
    let right = root;
    for (let i = 0; i < 12; i++) {
      left = await commit([left], `left ${i}`, 2000 + i * 10);
      right = await commit([right], `right ${i}`, i % 3 === 0 ? 2000 + i * 10 : 2005 + i * 10);
    }
    const skewed = await commit([right], 'clock went back', 1500);
    const merge = await commit([left, skewed], 'merge', 3000);
    const tip = await commit([merge], 'tip', 3000);
    const objects = new RepositoryObjects(cache, gitDir);
    for (const head of [tip, merge, left, skewed]) {
      const expected = (await sh(['rev-list', head])).split('\n');
      expect(await walkHistory(objects, head)).toEqual(expected);
    }
    expect(await walkHistory(objects, tip, 5)).toBeUndefined();
  });
});
