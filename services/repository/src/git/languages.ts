// What language statistics need from git: the regular files of a commit's tree with their
// sizes (ls-tree), and their linguist-* attributes from the commit's own .gitattributes
// (check-attr on a temporary index: `check-attr --source` needs git 2.40, and a bare
// repository has no work tree). Paths travel on stdin, NUL-separated, in one batch.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TreeEntry } from '../domain/git-objects.js';
import { attributeFlag, type LinguistAttributes, type TreeFile } from '../domain/languages.js';
import { git, runGit } from './command.js';
import type { RepositoryObjects } from './repository-objects.js';
import { diffTrees } from './tree-diff.js';

const REGULAR_FILE = /^100(644|755)$/;

/**
 * The same files read through the cat-file cache (repository-objects.ts): trees and sizes
 * are remembered by object id, so after a push only the trees it changed are read again,
 * and no process is started.
 */
export async function listTreeFilesThroughCache(objects: RepositoryObjects, commit: string): Promise<TreeFile[]> {
  const tree = await objects.peel(commit, 'tree');
  if (!tree) return [];
  const entries = await objects.listRecursive(tree.oid);
  return entries.filter((e) => e.type === 'blob' && REGULAR_FILE.test(e.mode)).map((e) => ({ path: e.path, size: e.size }));
}

/**
 * The regular files a change from commit `from` to commit `to` removed and added, with their
 * sizes (a modified file in both, with its old and new size), through the cat-file cache:
 * only the subtrees whose ids differ are read (tree-diff.ts).
 */
export async function changedFilesThroughCache(objects: RepositoryObjects, from: string, to: string): Promise<{ removed: TreeFile[]; added: TreeFile[] }> {
  const [before, after] = await Promise.all([objects.peel(from, 'tree'), objects.peel(to, 'tree')]);
  if (!before || !after) throw new Error(`not commits: ${from}, ${to}`);
  const changes = await diffTrees(objects, before.oid, after.oid);
  const [gone, came] = await Promise.all([
    objects.entriesAt(before.oid, [...changes.removed, ...changes.modified]),
    objects.entriesAt(after.oid, [...changes.added, ...changes.modified]),
  ]);
  const regular = (entries: Map<string, TreeEntry>) => [...entries.values()].filter((e) => e.type === 'blob' && REGULAR_FILE.test(e.mode)).map((e) => ({ path: e.path, size: e.size }));
  return { removed: regular(gone), added: regular(came) };
}

/** Regular files (no symlinks, no submodules) of `commit`'s tree with their sizes. */
export async function listTreeFiles(gitDir: string, commit: string): Promise<TreeFile[]> {
  const out = await runGit(git('ls-tree', { gitDir }).flag('-r', '-l', '-z', '--full-tree').oid(commit).build());
  const files: TreeFile[] = [];
  for (const entry of out.split('\0')) {
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [mode, type, , size] = entry.slice(0, tab).split(/\s+/);
    if (type === 'blob' && REGULAR_FILE.test(mode)) files.push({ path: entry.slice(tab + 1), size: Number(size) || 0 });
  }
  return files;
}

const ATTRIBUTES = ['linguist-vendored', 'linguist-generated', 'linguist-documentation', 'linguist-detectable', 'linguist-language', 'gitlab-language'];

/** linguist-* attributes of `paths` as `commit`'s .gitattributes files set them. */
export async function linguistAttributes(gitDir: string, commit: string, paths: readonly string[]): Promise<Map<string, LinguistAttributes>> {
  const result = new Map<string, LinguistAttributes>();
  // Without any .gitattributes nothing can be set: skip the temporary index.
  if (!paths.some((p) => p === '.gitattributes' || p.endsWith('/.gitattributes'))) return result;
  const tmp = await mkdtemp(join(tmpdir(), 'anvil-attrs-'));
  try {
    const index = join(tmp, 'index');
    await runGit(git('read-tree', { gitDir }).env('GIT_INDEX_FILE', index).oid(commit).build());
    const command = git('check-attr', { gitDir }).env('GIT_INDEX_FILE', index).flag('--cached', '-z', '--stdin');
    for (const attribute of ATTRIBUTES) command.arg(attribute);
    const out = await runGit(command.build(), { stdin: paths.join('\0') + '\0' });
    const fields = out.split('\0');
    for (let i = 0; i + 2 < fields.length; i += 3) {
      const [path, attribute, value] = [fields[i], fields[i + 1], fields[i + 2]];
      if (value === 'unspecified') continue;
      const attrs = result.get(path) ?? {};
      switch (attribute) {
        case 'linguist-vendored': attrs.vendored = attributeFlag(value); break;
        case 'linguist-generated': attrs.generated = attributeFlag(value); break;
        case 'linguist-documentation': attrs.documentation = attributeFlag(value); break;
        case 'linguist-detectable': attrs.detectable = attributeFlag(value); break;
        case 'linguist-language':
        case 'gitlab-language':
          if (value !== 'set' && value !== 'unset') attrs.language ??= value;
          break;
      }
      result.set(path, attrs);
    }
    return result;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}
