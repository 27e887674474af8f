// Where a repository's bare git data lives: `<root>/<owner>/<name>.git`, both lower-cased,
// under `${ANVIL_DATA_DIR}/repositories`. Paths are derived only from names that passed
// validation, and every derived path is checked to stay inside the root, so no name
// (`..`, `/etc`, `a/../../b`, NUL) can reach outside it.
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, lstat, readdir, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { git, runGit } from './command.js';
import { CatfileCache } from './catfile-cache.js';
import { ProcessPool, type ProcessPoolOptions } from './process-pool.js';
import { RefUpdaters } from './ref-updater.js';
import { RepositoryObjects } from './repository-objects.js';
import { ImmutableCache } from './immutable-cache.js';
import type { ObjectFormat } from './object-writer.js';

export class UnsafePath extends Error {}

/**
 * New repositories are made under `<root>/.staging/<uuid>.git` (no owner login starts with
 * a dot) and moved to their name only inside the transaction that inserts their row, with
 * this file in them until the row has committed. A crash at any point therefore leaves
 * either garbage in the staging area (cleared at start) or, at the repository's name, a
 * directory still marked as an unfinished creation, which the next create of that name
 * replaces: no crash leaves a directory that blocks the name.
 */
export const CREATING_MARKER = 'anvil-creating';
const STAGING = '.staging';

/** A single path segment safe as a directory name: owner logins and repository names. */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export function isSafeSegment(value: string): boolean {
  return SEGMENT.test(value) && value.length <= 255 && !value.includes('..');
}

// Repository names may also start with `.` (Gitea's `.profile`, `.dotfiles`): the directory
// is `<name>.git`, so no name can be `.` or `..` on disk. Never a leading `-`, nor `x.git`.
const NAME = /^[A-Za-z0-9_.][A-Za-z0-9_.-]*$/;

/** A repository name safe as the directory `<name>.git`. */
export function isSafeName(value: string): boolean {
  return NAME.test(value) && value.length <= 255 && !value.includes('..') && value !== '.' && !value.toLowerCase().endsWith('.git');
}

export class RepositoryStorage {
  readonly root: string;
  /** Long-lived cat-file processes of the repositories under the root (catfile-cache.ts). */
  readonly catfile: CatfileCache;
  /** Long-lived `update-ref --stdin` processes, in the same pool as the cat-file ones (ref-updater.ts). */
  readonly refUpdaters: RefUpdaters;
  /** Answers computed from object ids (immutable-cache.ts). */
  readonly computed = new ImmutableCache();

  constructor(root: string, processes: ProcessPoolOptions = {}) {
    if (!isAbsolute(root)) throw new UnsafePath(`storage root must be absolute: ${root}`);
    this.root = resolve(root);
    const pool = new ProcessPool(processes);
    this.catfile = new CatfileCache(pool);
    this.refUpdaters = new RefUpdaters(pool);
  }

  /** Closes the long-lived git processes and drops the computed answers of `gitDir` and what lies under it. */
  private forget(gitDir: string): void {
    this.catfile.forget(gitDir);
    this.computed.forget(gitDir);
  }

  /** Objects of the repository at `gitDir` (a path from pathOf), read through the cat-file cache. */
  objects(gitDir: string): RepositoryObjects {
    return new RepositoryObjects(this.catfile, gitDir, this.computed);
  }

  /** The bare repository directory for owner/name; throws UnsafePath for anything odd. */
  pathOf(owner: string, name: string): string {
    if (!isSafeSegment(owner) || !isSafeName(name)) {
      throw new UnsafePath(`unsafe repository path ${JSON.stringify(owner)}/${JSON.stringify(name)}`);
    }
    const path = resolve(this.root, owner.toLowerCase(), `${name.toLowerCase()}.git`);
    const rel = relative(this.root, path);
    if (!rel || rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).length !== 2) {
      throw new UnsafePath(`repository path escapes the storage root: ${path}`);
    }
    return path;
  }

  /** `git init --bare` with the given default branch; refuses an existing directory. */
  async init(owner: string, name: string, defaultBranch: string, objectFormat: ObjectFormat = 'sha1'): Promise<string> {
    const path = this.pathOf(owner, name);
    await mkdir(dirname(path), { recursive: true });
    await this.refuseSymlinkParent(path);
    // mkdir without `recursive` fails when the directory exists: two creates of one name
    // cannot share (or later delete) each other's data.
    await mkdir(path);
    await initBare(path, defaultBranch, objectFormat);
    return path;
  }

  /** A new bare repository in the staging area, marked as an unfinished creation; its path. */
  async stage(defaultBranch: string, objectFormat: ObjectFormat = 'sha1'): Promise<string> {
    const id = randomUUID();
    const path = join(this.root, STAGING, `${id}.git`);
    await mkdir(dirname(path), { recursive: true });
    await mkdir(path);
    await initBare(path, defaultBranch, objectFormat);
    await writeFile(join(path, CREATING_MARKER), id);
    return path;
  }

  /**
   * An empty directory in the staging area for git to clone into (a clone refuses anything
   * else); mark it with markStaged() once the clone made it a repository.
   */
  async reserveStaged(): Promise<string> {
    const path = join(this.root, STAGING, `${randomUUID()}.git`);
    await mkdir(dirname(path), { recursive: true });
    await mkdir(path);
    return path;
  }

  /** Marks a clone in a reserved directory as an unfinished creation, as stage() does. */
  async markStaged(path: string): Promise<void> {
    await writeFile(join(path, CREATING_MARKER), basename(path, '.git'));
  }

  /**
   * Moves a staged repository to owner/name. A directory already there is refused (EEXIST),
   * unless it is the leftover of a creation that crashed before its row committed (it still
   * carries the marker), which is replaced. Call it after the row's insert and before its
   * commit: the unique index holds a concurrent create of the same name until then.
   */
  async place(staged: string, owner: string, name: string): Promise<string> {
    const path = this.pathOf(owner, name);
    await mkdir(dirname(path), { recursive: true });
    await this.refuseSymlinkParent(path);
    if (await isRealDirectory(path)) {
      if (!(await isRealFile(join(path, CREATING_MARKER)))) {
        throw Object.assign(new Error(`repository directory exists: ${path}`), { code: 'EEXIST' });
      }
      await rm(path, { recursive: true, force: true });
    }
    await rename(staged, path);
    return path;
  }

  /** The row has committed: the repository at `path` is no longer an unfinished creation. */
  async settle(path: string): Promise<void> {
    await rm(join(path, CREATING_MARKER), { force: true });
  }

  /**
   * Undoes a creation that failed: removes the staged directory, or the placed one if it is
   * still this creation's (a concurrent create of the name may have replaced it meanwhile).
   */
  async discard(staged: string, placed: string | undefined): Promise<void> {
    const id = basename(staged, '.git');
    if (placed && (await readFile(join(placed, CREATING_MARKER), 'utf8').catch(() => '')) === id) {
      await rm(placed, { recursive: true, force: true });
    }
    await rm(staged, { recursive: true, force: true });
  }

  /** Clears the staging area: at start, what is there was left by a crash. */
  async clearStaging(): Promise<void> {
    await rm(join(this.root, STAGING), { recursive: true, force: true });
  }

  async exists(owner: string, name: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(owner, name))).isDirectory();
    } catch {
      return false;
    }
  }

  async move(fromOwner: string, fromName: string, toOwner: string, toName: string): Promise<void> {
    const from = this.pathOf(fromOwner, fromName);
    const to = this.pathOf(toOwner, toName);
    if (from === to) return;
    await mkdir(dirname(to), { recursive: true });
    // Processes opened on the old path would keep answering for a name that moved away.
    this.forget(from);
    await rename(from, to);
    this.forget(to);
  }

  /** Moves every repository of an owner after the owner's login changed. */
  async moveOwner(fromLogin: string, toLogin: string): Promise<void> {
    if (!isSafeSegment(fromLogin) || !isSafeSegment(toLogin)) throw new UnsafePath(`unsafe owner ${JSON.stringify(fromLogin)} → ${JSON.stringify(toLogin)}`);
    const from = resolve(this.root, fromLogin.toLowerCase());
    const to = resolve(this.root, toLogin.toLowerCase());
    if (from === to) return;
    this.forget(from);
    try {
      await rename(from, to);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // an owner without repositories
      throw err;
    }
  }

  /** Removes every repository of an owner (the owner was deleted). */
  async removeOwner(login: string): Promise<void> {
    if (!isSafeSegment(login)) throw new UnsafePath(`unsafe owner ${JSON.stringify(login)}`);
    this.forget(resolve(this.root, login.toLowerCase()));
    await rm(resolve(this.root, login.toLowerCase()), { recursive: true, force: true });
  }

  async remove(owner: string, name: string): Promise<void> {
    const path = this.pathOf(owner, name);
    // A running cat-file keeps its packs open: close it, or it would answer for a deleted
    // repository (and for one created again under the same name).
    this.forget(path);
    await rm(path, { recursive: true, force: true });
    this.forget(path);
  }

  /** Bytes of git data under the repository (Gitea reports size in KiB from this). */
  async sizeOf(owner: string, name: string): Promise<number> {
    return directorySize(this.pathOf(owner, name));
  }

  private async refuseSymlinkParent(path: string): Promise<void> {
    // The owner directory must be a real directory: a symlink there would send git data
    // outside the root.
    if ((await lstat(dirname(path))).isSymbolicLink()) {
      throw new UnsafePath(`owner directory is a symlink: ${dirname(path)}`);
    }
  }
}

/** A directory itself, not a symlink to one (lstat); false when nothing is there. */
export async function isRealDirectory(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** A regular file itself, not a symlink to one (lstat); false when nothing is there. */
export async function isRealFile(path: string): Promise<boolean> {
  try {
    return (await lstat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * `git init --bare` with HEAD on refs/heads/<branch>: one process (a separate symbolic-ref
 * was a second start for every new repository).
 */
async function initBare(path: string, branch: string, objectFormat: ObjectFormat): Promise<void> {
  await runGit(git('init').flag('--bare', '--quiet', `--object-format=${objectFormat}`, '--initial-branch').ref(branch).afterEndOfOptions(path).build());
}

/** Points HEAD at refs/heads/<branch>. */
export async function setHead(gitDir: string, branch: string): Promise<void> {
  await runGit(git('symbolic-ref', { gitDir }).arg('HEAD').ref(`refs/heads/${branch}`).build());
}

/** Bytes under `dir` (the repository's `size`, as Gitea counts the git directory). */
export async function directorySize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(vanished([]))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await directorySize(path);
    else if (entry.isFile()) total += (await stat(path).catch(vanished({ size: 0 }))).size;
  }
  return total;
}

/**
 * A concurrent push's quarantine directory (objects/tmp_objdir-incoming-*) or a packed
 * loose object can vanish between listing and reading: it then counts nothing.
 */
function vanished<T>(instead: T): (err: NodeJS.ErrnoException) => T {
  return (err) => {
    if (err.code === 'ENOENT') return instead;
    throw err;
  };
}
