// Git objects read with plumbing for the blob, tree, ref and raw-file views: cat-file,
// ls-tree, for-each-ref and log, all through the one command builder. Caller values reach
// git only as validated object ids, as lines on cat-file's stdin (never argv, so never an
// option), or as a literal path after `--` (GIT_LITERAL_PATHSPECS: no pathspec magic).
import type { ChildProcess } from 'node:child_process';
import type { GitObjectsGit, ObjectInfo, RawEntry, RefEntry, TreeEntry } from '../domain/git-objects.js';
import { git, GitError, isObjectId, spawnGit, runGit, runGitBytes } from './command.js';
import type { RepositoryObjects } from './repository-objects.js';
import type { RepositoryStorage } from './storage.js';
import type { RefIndex } from './ref-index.js';

/**
 * Looks up many revision names in one `cat-file --batch-check` process: name → object id,
 * type and size, or undefined when git knows no such object. Names travel on stdin, one a
 * line, so none can be read as an option; a name holding a newline is refused.
 */
export async function lookupObjects(gitDir: string, names: readonly string[]): Promise<Map<string, { sha: string; type: string; size: number } | undefined>> {
  const result = new Map<string, { sha: string; type: string; size: number } | undefined>();
  const asked = names.filter((name) => name && !/[\n\r\0]/.test(name));
  if (!asked.length) return result;
  const stdout = await runGitBytes(git('cat-file', { gitDir }).flag('--batch-check=%(objectname) %(objecttype) %(objectsize)').build(), { stdin: `${asked.join('\n')}\n` });
  const lines = stdout.toString('utf8').split('\n');
  asked.forEach((name, i) => {
    const [sha, type, size] = (lines[i] ?? '').split(' ');
    result.set(name, isObjectId(sha ?? '') && type ? { sha, type, size: Number(size) || 0 } : undefined);
  });
  return result;
}

/** Entries of `treeSha` as `ls-tree -l -z` prints them; with `recursive`, subtrees too (-r -t). */
export async function listTreeEntries(gitDir: string, treeSha: string, recursive: boolean): Promise<TreeEntry[]> {
  const command = git('ls-tree', { gitDir }).flag('-l', '-z');
  if (recursive) command.flag('-r', '-t');
  const out = await runGit(command.oid(treeSha).build());
  return parseLsTree(out);
}

/** `<mode> SP <type> SP <sha> SP+ <size|-> TAB <path>` records, NUL-terminated (`ls-tree -l -z`). */
export function parseLsTree(out: string): TreeEntry[] {
  return out.split('\0').filter(Boolean).map((record) => {
    const tab = record.indexOf('\t');
    const [mode, type, sha, size] = record.slice(0, tab).split(/ +/);
    return { mode, type: type as TreeEntry['type'], sha, size: size === '-' ? 0 : Number(size), path: record.slice(tab + 1) };
  });
}

/** A blob's bytes, read whole: only for blobs known to be small enough. */
export async function readBlob(gitDir: string, sha: string): Promise<Buffer> {
  return runGitBytes(git('cat-file', { gitDir }).arg('blob').oid(sha).build());
}

/** The entry at `path` in `commit`'s tree; undefined when there is none. */
export async function findEntry(gitDir: string, commit: string, path: string): Promise<RawEntry | undefined> {
  const out = await runGit(git('ls-tree', { gitDir }).env('GIT_LITERAL_PATHSPECS', '1').flag('-l', '-z', '--full-tree').oid(commit).paths(path).build());
  return parseLsTree(out).find((entry) => entry.path === path);
}

/** Unix seconds of the newest commit reachable from `commit` that touched `path`. */
export async function lastChanged(gitDir: string, commit: string, path: string): Promise<number | undefined> {
  const out = await runGit(git('log', { gitDir }).env('GIT_LITERAL_PATHSPECS', '1').flag('--max-count=1', '--format=%ct').oid(commit).paths(path).build());
  const seconds = Number(out.trim());
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/** Every ref with its object: name order, as for-each-ref sorts. */
export async function listAllRefs(gitDir: string): Promise<RefEntry[]> {
  const out = await runGit(git('for-each-ref', { gitDir }).flag('--format=%(objectname) %(objecttype) %(refname)').build());
  const refs: RefEntry[] = [];
  for (const line of out.split('\n')) {
    const [sha, type, ...name] = line.split(' ');
    if (isObjectId(sha ?? '') && name.length) refs.push({ ref: name.join(' '), sha, type });
  }
  return refs;
}

/** `git cat-file blob <sha>` streaming to stdout; the caller owns the process. */
export function spawnBlob(gitDir: string, sha: string): ChildProcess {
  return spawnGit(git('cat-file', { gitDir }).arg('blob').oid(sha).build());
}

const PEELED_ID = /^([0-9a-f]{40}|[0-9a-f]{64})(?:\^\{(commit|tree)\})?$/;

/**
 * lookupObjects that asks the cat-file cache for names that are object ids (`<id>`,
 * `<id>^{commit}`, `<id>^{tree}`), and one short-lived process for the rest (ref names,
 * short ids), which must be resolved against the refs as they are now.
 */
export async function lookupThroughCache(objects: RepositoryObjects, names: readonly string[]): Promise<Map<string, ObjectInfo | undefined>> {
  const result = new Map<string, ObjectInfo | undefined>();
  const rest: string[] = [];
  await Promise.all(names.map(async (name) => {
    const match = PEELED_ID.exec(name);
    if (!match) return void rest.push(name);
    const found = match[2] ? await objects.peel(match[1], match[2] as 'commit' | 'tree') : await objects.info(match[1]);
    result.set(name, found ? { sha: found.oid, type: found.type, size: found.size } : undefined);
  }));
  if (rest.length) for (const [name, info] of await lookupObjects(objects.gitDir, rest)) result.set(name, info);
  return result;
}

/** The GitObjectsGit port of the domain over the repositories of `storage`. */
export function gitObjectsGit(storage: RepositoryStorage, refs?: RefIndex): GitObjectsGit {
  return {
    gitDirOf: (owner, name) => storage.pathOf(owner, name),
    lookupObjects: (gitDir, names) => (refs ? refs.lookupObjects(gitDir, names) : lookupThroughCache(storage.objects(gitDir), names)),
    listTreeEntries: (gitDir, treeSha, recursive) => (recursive ? storage.objects(gitDir).listRecursive(treeSha) : storage.objects(gitDir).list(treeSha, '')),
    listAllRefs,
    async readBlob(gitDir, sha) {
      const bytes = await storage.objects(gitDir).blob(sha);
      if (!bytes) throw new GitError(['cat-file'], null, `no blob ${sha}`);
      return bytes;
    },
  };
}
