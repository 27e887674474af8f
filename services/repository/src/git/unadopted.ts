// The storage root as local adoption sees it: which `<owner>/<name>.git` directories exist,
// whether one is a real bare repository, and its branches. Nothing here follows a symlink:
// entries are read with lstat/readdir's own types, and paths come from RepositoryStorage's
// pathOf, which refuses any name that could leave the root.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { UnadoptedGit } from '../domain/unadopted.js';
import { git, isValidBranchName, runGit } from './command.js';
import { isRealDirectory, isRealFile, isSafeName, isSafeSegment, RepositoryStorage, setHead } from './storage.js';

async function directoriesIn(dir: string): Promise<string[]> {
  try {
    // Dirent types come from lstat semantics: a symlink to a directory is not a directory.
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw err;
  }
}

const byteOrder = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function unadoptedGit(storage: RepositoryStorage): UnadoptedGit {
  /** The repository directory, or undefined when the names are unsafe or a symlink is on the way. */
  async function directoryOf(owner: string, name: string): Promise<string | undefined> {
    if (!isSafeSegment(owner) || !isSafeName(name)) return undefined;
    const path = storage.pathOf(owner, name);
    if (!(await isRealDirectory(join(path, '..'))) || !(await isRealDirectory(path))) return undefined;
    return path;
  }

  return {
    async listDirectories() {
      const found: Array<{ owner: string; name: string }> = [];
      for (const owner of (await directoriesIn(storage.root)).sort(byteOrder)) {
        if (!isSafeSegment(owner)) continue;
        for (const entry of (await directoriesIn(join(storage.root, owner))).sort(byteOrder)) {
          if (!entry.endsWith('.git')) continue;
          const name = entry.slice(0, -'.git'.length);
          // Storage writes lower-case names; anything else was not made for a repository.
          if (name !== name.toLowerCase() || !isSafeName(name)) continue;
          found.push({ owner, name });
        }
      }
      return found;
    },
    async isDirectory(owner, name) {
      return (await directoryOf(owner, name)) !== undefined;
    },
    async isRepository(owner, name) {
      const path = await directoryOf(owner, name);
      if (!path) return false;
      // A bare repository's skeleton, each a real file or directory (not a link elsewhere).
      return (await isRealFile(join(path, 'HEAD'))) && (await isRealDirectory(join(path, 'objects'))) && (await isRealDirectory(join(path, 'refs')));
    },
    async headBranch(owner, name) {
      try {
        const ref = (await runGit(git('symbolic-ref', { gitDir: storage.pathOf(owner, name) }).flag('--quiet').arg('HEAD').build())).trim();
        return ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : undefined;
      } catch {
        return undefined;
      }
    },
    async branches(owner, name) {
      const out = await runGit(git('for-each-ref', { gitDir: storage.pathOf(owner, name) }).flag('--format=%(refname)').arg('refs/heads/').build());
      return out.split('\n').filter((r) => r.startsWith('refs/heads/')).map((r) => r.slice('refs/heads/'.length)).filter(isValidBranchName);
    },
    setDefaultBranch: (owner, name, branch) => setHead(storage.pathOf(owner, name), branch),
    async objectFormat(owner, name) {
      return (await runGit(git('rev-parse', { gitDir: storage.pathOf(owner, name) }).flag('--show-object-format').build())).trim();
    },
    size: (owner, name) => storage.sizeOf(owner, name),
    remove: (owner, name) => storage.remove(owner, name),
  };
}
