// Tags, language inputs and archives against real git in a temporary directory.
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawnArchive, spawnBundle, type Archiver } from '../src/git/archive.js';
import { linguistAttributes, listTreeFiles } from '../src/git/languages.js';
import { resolveCommit } from '../src/git/refs.js';
import { createTag, deleteTag, findTag, listTags, readTagObject, TagExists } from '../src/git/tags.js';

const run = promisify(execFile);
let dir: string;
let gitDir: string;
let commit: string;
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com' };
const sh = (args: string[], cwd: string) => run('git', args, { cwd, env, maxBuffer: 64 * 1024 * 1024, encoding: 'buffer' });

const FILES: Record<string, string> = {
  'src/app.ts': 'export const answer = 42;\n',
  'vendor/lib.js': 'var x = 1;\n',
  'gen/out.go': 'package gen\n',
  'docs/guide.md': '# Guide\n',
  'scripts/build.txt': 'echo build\n',
  '.gitattributes': 'vendor/** linguist-vendored=false\ngen/** linguist-generated\nscripts/*.txt linguist-language=Shell\n',
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'anvil-views-int-'));
  const work = join(dir, 'work');
  await mkdir(work);
  await sh(['init', '-q', '-b', 'main'], work);
  for (const [path, content] of Object.entries(FILES)) {
    await mkdir(dirname(join(work, path)), { recursive: true });
    await writeFile(join(work, path), content);
  }
  await sh(['add', '-A'], work);
  await sh(['commit', '-qm', 'Files for views'], work);
  gitDir = join(work, '.git');
  commit = (await sh(['rev-parse', 'HEAD'], work)).stdout.toString().trim();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function collect(archiver: Archiver): Promise<Buffer> {
  const chunks: Buffer[] = [];
  archiver.child.stdin!.end();
  archiver.child.stdout!.on('data', (b: Buffer) => chunks.push(b));
  const code = await new Promise<number | null>((resolve) => archiver.child.on('close', resolve));
  await archiver.cleanup();
  expect(code).toBe(0);
  return Buffer.concat(chunks);
}

describe('tags with real git', () => {
  it('resolves branches and shas to commits, and nothing for unknown or unsafe revisions', async () => {
    expect(await resolveCommit(gitDir, 'main')).toBe(commit);
    expect(await resolveCommit(gitDir, commit)).toBe(commit);
    expect(await resolveCommit(gitDir, 'nope')).toBeUndefined();
    expect(await resolveCommit(gitDir, '--all')).toBeUndefined();
  });

  it('creates lightweight and annotated tags, refuses a second of one name, reads and deletes them', async () => {
    await createTag(gitDir, 'v1', commit, '', { name: 'Ada', email: 'ada@example.com' });
    await createTag(gitDir, 'v2', commit, 'Release two', { name: 'Ada <evil>', email: 'ada@example.com\nx' }, new Date(Date.now() + 10_000));
    await expect(createTag(gitDir, 'v1', commit, '', { name: 'Ada', email: 'a@b' })).rejects.toBeInstanceOf(TagExists);

    const tags = await listTags(gitDir);
    expect(tags.map((t) => t.name)).toEqual(['v2', 'v1']);
    expect(tags[1]).toMatchObject({ name: 'v1', id: commit, commitSha: commit, annotated: false, message: 'Files for views\n' });
    expect(tags[0]).toMatchObject({ name: 'v2', commitSha: commit, annotated: true, message: 'Release two\n', tagger: { name: 'Ada evil', email: 'ada@example.comx' } });

    const object = await readTagObject(gitDir, tags[0].id);
    expect(object).toMatchObject({ tag: 'v2', objectSha: commit, objectType: 'commit', message: 'Release two\n' });
    expect(await readTagObject(gitDir, commit)).toBeUndefined();

    expect(await findTag(gitDir, 'v1')).toMatchObject({ id: commit });
    expect(await deleteTag(gitDir, 'v1', 'f'.repeat(40))).toBe(false);
    expect(await deleteTag(gitDir, 'v1', commit)).toBe(true);
    expect(await findTag(gitDir, 'v1')).toBeUndefined();
  });
});

describe('language inputs with real git', () => {
  it('lists regular files with sizes and reads linguist attributes from the commit\'s .gitattributes', async () => {
    const files = await listTreeFiles(gitDir, commit);
    expect(files).toEqual(expect.arrayContaining([{ path: 'src/app.ts', size: FILES['src/app.ts'].length }]));
    const attributes = await linguistAttributes(gitDir, commit, files.map((f) => f.path));
    expect(attributes.get('vendor/lib.js')).toEqual({ vendored: false });
    expect(attributes.get('gen/out.go')).toEqual({ generated: true });
    expect(attributes.get('scripts/build.txt')).toEqual({ language: 'Shell' });
    expect(attributes.get('src/app.ts')).toBeUndefined();
  });
});

describe('archives with real git', () => {
  it('zips the commit under the repository name as prefix', async () => {
    const zip = await collect(spawnArchive(gitDir, 'demo', commit, 'zip'));
    const path = join(dir, 'a.zip');
    await writeFile(path, zip);
    const { stdout } = await run('unzip', ['-Z1', path]);
    expect(stdout.split('\n')).toEqual(expect.arrayContaining(['demo/src/app.ts', 'demo/.gitattributes']));
  });

  it('bundles the commit so it verifies and clones to that commit', async () => {
    const bundle = await collect(await spawnBundle(gitDir, commit));
    const path = join(dir, 'a.bundle');
    await writeFile(path, bundle);
    const clone = join(dir, 'from-bundle');
    await sh(['clone', '-q', path, clone], dir);
    expect((await sh(['rev-parse', 'HEAD'], clone)).stdout.toString().trim()).toBe(commit);
  });
});
