// Git object reads against real git in a temporary repository: trees with every entry kind,
// blobs byte for byte, refs, and raw file locations; values shaped like options or pathspec
// magic are read literally or refused, never obeyed.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { resolveLocation } from '../src/domain/git-objects.js';
import { findEntry, lastChanged, listAllRefs, listTreeEntries, lookupObjects, readBlob } from '../src/git/objects-git.js';

const run = promisify(execFile);
let dir: string;
let gitDir: string;
let first: string;
let second: string;
const BINARY = Buffer.concat([Buffer.from([0, 0xff, 0x0a, 0x0d]), randomBytes(200_000)]);
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };
const sh = async (args: string[], cwd: string) => (await run('git', args, { cwd, env, maxBuffer: 64 * 1024 * 1024 })).stdout.trim();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'anvil-objects-int-'));
  const work = join(dir, 'work');
  await mkdir(join(work, 'docs'), { recursive: true });
  await sh(['init', '-q', '-b', 'main'], work);
  await writeFile(join(work, 'README.md'), 'first\n');
  await writeFile(join(work, '--upload-pack=evil'), 'a file with an option for a name\n');
  await writeFile(join(work, 'a.txt'), 'a\n');
  await writeFile(join(work, 'docs', 'guide.md'), '# Guide\n');
  await writeFile(join(work, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
  await writeFile(join(work, 'data.bin'), BINARY);
  await symlink('README.md', join(work, 'link'));
  await sh(['add', '-A'], work);
  // A submodule entry (gitlink) without a submodule checkout.
  await sh(['update-index', '--add', '--cacheinfo', `160000,${'e'.repeat(40)},vendor/lib`], work);
  await sh(['commit', '-qm', 'First'], work);
  first = await sh(['rev-parse', 'HEAD'], work);
  await sh(['tag', '-a', 'v1', '-m', 'one'], work);
  await sh(['branch', 'feature/x'], work);
  await writeFile(join(work, 'README.md'), 'second\n');
  // Not `commit -a`: that would drop the gitlink, which has no checkout.
  await sh(['add', 'README.md'], work);
  await sh(['commit', '-qm', 'Second'], work);
  second = await sh(['rev-parse', 'HEAD'], work);
  gitDir = join(work, '.git');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('git objects with real git', () => {
  it('looks up many names in one go: refs peeled to commits or trees, ids, and nothing for the unknown', async () => {
    const found = await lookupObjects(gitDir, ['refs/heads/main^{commit}', 'refs/tags/v1^{commit}', 'main^{tree}', 'nope', `${first}^{commit}`, 'a\nrefs/heads/main']);
    expect(found.get('refs/heads/main^{commit}')).toMatchObject({ sha: second, type: 'commit' });
    expect(found.get('refs/tags/v1^{commit}')).toMatchObject({ sha: first, type: 'commit' });
    expect(found.get('main^{tree}')?.type).toBe('tree');
    expect(found.get('nope')).toBeUndefined();
    expect(found.get(`${first}^{commit}`)?.sha).toBe(first);
    // A name with a newline would be two lines of cat-file's input: it is not asked at all.
    expect(found.has('a\nrefs/heads/main')).toBe(false);
  });

  it('lists a tree with each kind of entry, and recursively with subtrees', async () => {
    const tree = (await lookupObjects(gitDir, ['main^{tree}'])).get('main^{tree}')!.sha;
    const top = await listTreeEntries(gitDir, tree, false);
    const byPath = new Map(top.map((e) => [e.path, e]));
    expect(byPath.get('README.md')).toMatchObject({ mode: '100644', type: 'blob', size: 7 });
    expect(byPath.get('run.sh')).toMatchObject({ mode: '100755', type: 'blob' });
    expect(byPath.get('link')).toMatchObject({ mode: '120000', type: 'blob', size: 9 });
    expect(byPath.get('docs')).toMatchObject({ mode: '040000', type: 'tree', size: 0 });
    expect(byPath.get('vendor')).toMatchObject({ type: 'tree' });
    const all = await listTreeEntries(gitDir, tree, true);
    expect(all.map((e) => e.path)).toEqual(expect.arrayContaining(['docs', 'docs/guide.md', 'vendor', 'vendor/lib']));
    expect(all.find((e) => e.path === 'vendor/lib')).toMatchObject({ mode: '160000', type: 'commit', sha: 'e'.repeat(40), size: 0 });
  });

  it('finds an entry by its literal path: names like options are files, pathspec magic matches nothing', async () => {
    expect(await findEntry(gitDir, second, '--upload-pack=evil')).toMatchObject({ type: 'blob', path: '--upload-pack=evil' });
    expect(await findEntry(gitDir, second, '*.txt')).toBeUndefined();
    expect(await findEntry(gitDir, second, ':(glob)**/guide.md')).toBeUndefined();
    expect(await findEntry(gitDir, second, 'docs')).toMatchObject({ type: 'tree' });
    expect(await findEntry(gitDir, second, 'docs/guide.md')).toMatchObject({ type: 'blob', size: 8 });
    expect(await findEntry(gitDir, first, 'nope')).toBeUndefined();
  });

  it('reads a blob byte for byte and dates the last commit that touched a path', async () => {
    const entry = await findEntry(gitDir, second, 'data.bin');
    expect((await readBlob(gitDir, entry!.sha)).equals(BINARY)).toBe(true);
    const commitTime = Number(await sh(['log', '-1', '--format=%ct', first], gitDir));
    expect(await lastChanged(gitDir, second, 'data.bin')).toBe(commitTime);
    expect(await lastChanged(gitDir, second, 'nope')).toBeUndefined();
  });

  it('lists every ref by name with its object type', async () => {
    const refs = await listAllRefs(gitDir);
    expect(refs.map((r) => r.ref)).toEqual(['refs/heads/feature/x', 'refs/heads/main', 'refs/tags/v1']);
    expect(refs[1]).toEqual({ ref: 'refs/heads/main', sha: second, type: 'commit' });
    expect(refs[2].type).toBe('tag');
  });

  it('resolves raw file locations on real refs, and refs shaped like options to nothing', async () => {
    const git = { lookupObjects };
    expect(await resolveLocation(git, gitDir, { kind: 'api', path: 'feature/x/README.md' })).toEqual({ commit: first, treePath: 'README.md' });
    expect(await resolveLocation(git, gitDir, { kind: 'api', path: 'README.md' })).toEqual({ commit: second, treePath: 'README.md' });
    expect(await resolveLocation(git, gitDir, { kind: 'tag', path: 'v1/docs/guide.md' })).toEqual({ commit: first, treePath: 'docs/guide.md' });
    expect(await resolveLocation(git, gitDir, { kind: 'commit', path: `${first.slice(0, 8)}/a.txt` })).toEqual({ commit: first, treePath: 'a.txt' });
    const marker = join(dir, 'pwned');
    for (const ref of [`--upload-pack=touch ${marker}`, '--output=/tmp/x', 'main..v1', 'main~1', 'main^', 'main:README.md']) {
      expect(await resolveLocation(git, gitDir, { kind: 'api', path: 'README.md', ref })).toBeUndefined();
    }
    expect(await resolveLocation(git, gitDir, { kind: 'branch', path: `--upload-pack=touch ${marker}/x` })).toBeUndefined();
    await expect(access(marker)).rejects.toThrow();
  });
});
