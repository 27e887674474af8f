// The git builder and storage against real git in a temporary directory.
import { mkdir, mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { git, GitError, runGit } from '../src/git/command.js';
import { commitInitialFiles, commitsBetween, listRefs } from '../src/git/refs.js';
import { RepositoryStorage, UnsafePath } from '../src/git/storage.js';

let dir: string;
let storage: RepositoryStorage;
const who = { name: 'Ada', email: 'ada@example.com' };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'anvil-git-int-'));
  storage = new RepositoryStorage(join(dir, 'repositories'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('repository storage with real git', () => {
  it('creates a bare sha1 repository whose HEAD names the default branch', async () => {
    const path = await storage.init('Alice', 'Demo', 'trunk');
    expect(path).toBe(join(dir, 'repositories', 'alice', 'demo.git'));
    expect((await runGit(git('rev-parse', { gitDir: path }).flag('--is-bare-repository').build())).trim()).toBe('true');
    expect((await runGit(git('symbolic-ref', { gitDir: path }).arg('HEAD').build())).trim()).toBe('refs/heads/trunk');
    expect((await runGit(git('rev-parse', { gitDir: path }).flag('--show-object-format').build())).trim()).toBe('sha1');
    expect(await listRefs(path)).toEqual(new Map());
  });

  it('refuses to create over an existing directory (two creates of one name)', async () => {
    await storage.init('alice', 'twice', 'main');
    await expect(storage.init('ALICE', 'TWICE', 'main')).rejects.toMatchObject({ code: 'EEXIST' });
  });

  it('writes an initial commit with plumbing and lists it with its files', async () => {
    const path = await storage.init('alice', 'with-readme', 'main');
    const sha = await commitInitialFiles(path, 'main', { 'README.md': '# with-readme\n' }, 'Initial commit\n', who);
    expect(await listRefs(path)).toEqual(new Map([['refs/heads/main', sha]]));
    const { commits, total } = await commitsBetween(path, sha, [], 10);
    expect(total).toBe(1);
    expect(commits[0]).toMatchObject({ id: sha, message: 'Initial commit\n', authorName: 'Ada', authorEmail: 'ada@example.com', added: ['README.md'] });
    // update-ref with the "must not exist" old value: a second initial commit cannot overwrite it.
    await expect(commitInitialFiles(path, 'main', { 'x.txt': 'x' }, 'again\n', who)).rejects.toBeInstanceOf(GitError);
  });

  it('moves (renames) and removes a repository', async () => {
    await storage.init('alice', 'before', 'main');
    await storage.move('alice', 'before', 'alice', 'after');
    expect(await storage.exists('alice', 'before')).toBe(false);
    expect(await storage.exists('alice', 'after')).toBe(true);
    await storage.remove('alice', 'after');
    expect(await storage.exists('alice', 'after')).toBe(false);
  });

  it('refuses names that would escape the root, and an owner directory that is a symlink', async () => {
    await expect(storage.init('..', 'x', 'main')).rejects.toBeInstanceOf(UnsafePath);
    await expect(storage.init('alice', '../../x', 'main')).rejects.toBeInstanceOf(UnsafePath);
    const outside = join(dir, 'outside');
    await mkdir(outside);
    await symlink(outside, join(dir, 'repositories', 'mallory'));
    await expect(storage.init('mallory', 'x', 'main')).rejects.toBeInstanceOf(UnsafePath);
    await expect(stat(join(outside, 'x.git'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reports git failures with git\'s message', async () => {
    const path = storage.pathOf('alice', 'demo');
    await expect(runGit(git('rev-parse', { gitDir: path }).flag('--verify').ref('refs/heads/nope').build()))
      .rejects.toMatchObject({ name: 'GitError', stderr: expect.stringContaining('Needed a single revision') });
  });
});
