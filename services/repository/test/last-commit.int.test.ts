// The last commit of a path (contents' last_commit_sha) walked over the cat-file cache gives
// exactly what `git log -1 <commit> -- <path>` gives, for every commit and every path of a
// history with merges, deletions, re-additions, mode changes and a long stretch of commits
// that never touch a file (where the walk hands over to git).
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile, chmod, mkdir, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { CatfileCache } from '../src/git/catfile-cache.js';
import { lastCommitOf } from '../src/git/contents-git.js';
import { ImmutableCache } from '../src/git/immutable-cache.js';
import { lastCommitWalker } from '../src/git/last-commit.js';
import { ProcessPool } from '../src/git/process-pool.js';
import { RepositoryObjects } from '../src/git/repository-objects.js';

jest.setTimeout(60_000);

const run = promisify(execFile);
let clock = 1_700_000_000;
const env = () => ({
  ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com',
  GIT_AUTHOR_DATE: `${clock} +0200`, GIT_COMMITTER_DATE: `${(clock += 60)} -0500`,
});

let work: string;
const sh = async (...args: string[]) => (await run('git', ['-C', work, ...args], { env: env() })).stdout.trim();
const put = async (path: string, text: string) => {
  await mkdir(join(work, path, '..'), { recursive: true });
  await writeFile(join(work, path), text);
};
const commitAll = async (message: string) => {
  await sh('add', '-A');
  await sh('commit', '-q', '--allow-empty', '-m', message);
};

const pool = new ProcessPool();
const catfile = new CatfileCache(pool);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'anvil-last-commit-'));
  await sh('init', '-q', '-b', 'main');
  await put('README.md', '# hello\n');
  await put('src/a.ts', 'a\n');
  await put('src/deep/b.ts', 'b\n');
  await commitAll('First\n\nWith a body.');
  await put('src/a.ts', 'a2\n');
  await commitAll('Change a');
  await chmod(join(work, 'src/a.ts'), 0o755);
  await commitAll('Make a executable');
  // A side branch changes b; main changes README; the merge takes both.
  await sh('checkout', '-q', '-b', 'side');
  await put('src/deep/b.ts', 'b-side\n');
  await commitAll('Side changes b');
  await sh('checkout', '-q', 'main');
  await put('README.md', '# hello again\n');
  await commitAll('Main changes README');
  await sh('merge', '-q', '--no-ff', '-m', 'Merge side', 'side');
  // Both sides change the same file; the merge resolves it to something neither had.
  await sh('checkout', '-q', '-b', 'other');
  await put('src/a.ts', 'other\n');
  await commitAll('Other changes a');
  await sh('checkout', '-q', 'main');
  await put('src/a.ts', 'main\n');
  await commitAll('Main changes a');
  await run('git', ['-C', work, 'merge', '-q', 'other', '-m', 'Merge other'], { env: env() }).catch(() => undefined);
  await put('src/a.ts', 'resolved\n');
  await commitAll('Merge other, resolved');
  // Deleted, then added back with the same bytes.
  await unlink(join(work, 'src/deep/b.ts'));
  await commitAll('Remove b');
  await put('src/deep/b.ts', 'b-side\n');
  await commitAll('Bring b back');
  // A long stretch that never touches README (longer than one walk goes before asking git).
  for (let i = 0; i < 40; i++) {
    await put(`notes/${i}.txt`, `${i}\n`);
    await commitAll(`Note ${i}`);
  }
});

afterAll(async () => {
  pool.close();
  await rm(work, { recursive: true, force: true });
});

describe('the last commit of a file or directory', () => {
  it('is the one git log names, at every commit, for every path', async () => {
    const gitDir = join(work, '.git');
    const walk = lastCommitWalker(gitDir, new RepositoryObjects(catfile, gitDir), new ImmutableCache());
    // Newest first, so later walks meet answers remembered by earlier ones, as reads do. The
    // stretch of notes is the same case forty times over: its newest commits and every eighth
    // are asked (each `git log` asked costs a process, and this file ran close to its
    // timeout on slow machines), and there only the paths it does not touch and the newest
    // notes.
    const commits = (await sh('log', '--all', '--format=%H %s')).split('\n')
      .map((line) => ({ commit: line.slice(0, line.indexOf(' ')), note: /^Note (\d+)$/.exec(line.slice(line.indexOf(' ') + 1))?.[1] }))
      .filter(({ note }) => note === undefined || Number(note) >= 36 || Number(note) % 8 === 0)
      .map(({ commit }) => commit);
    let compared = 0;
    for (const commit of commits) {
      const all = ['', ...(await sh('ls-tree', '-r', '-t', '--name-only', commit)).split('\n')];
      const paths = all.filter((p) => !/^notes\/\d+\.txt$/.test(p) || Number(p.slice(6, -4)) >= 36);
      for (const path of paths) {
        expect({ commit, path, last: await walk(commit, path) }).toEqual({ commit, path, last: await lastCommitOf(gitDir, commit, path) });
        compared++;
      }
    }
    expect(commits).toHaveLength(20);
    expect(compared).toBeGreaterThan(120);
  });

  it('is found from a cold cache at the tip of a long history', async () => {
    const gitDir = join(work, '.git');
    const walk = lastCommitWalker(gitDir, new RepositoryObjects(catfile, gitDir), new ImmutableCache());
    const head = await sh('rev-parse', 'main');
    const readme = await walk(head, 'README.md');
    expect(readme?.message).toBe('Main changes README\n');
    expect(readme).toEqual(await lastCommitOf(gitDir, head, 'README.md'));
  });
});
