// Reading files and directories at a commit with plumbing: resolving a branch/tag/commit,
// `ls-tree` for entries, `cat-file` for bytes and `log` for the last commit of a path. All
// through the one command builder; user paths only ever follow `--` (with literal pathspecs,
// so `*` or `:(glob)` in a name is just a character) or travel on stdin.
import type { TreeEntry } from '../domain/git-objects.js';
import { git, runGit, spawnGit } from './command.js';
import { lookupObjects, parseLsTree } from './objects-git.js';
import type { RepositoryObjects } from './repository-objects.js';
import type { LastCommit, RefKind, ResolvedRevision } from '../domain/contents.js';

export type { LastCommit, RefKind, ResolvedRevision } from '../domain/contents.js';


/**
 * Gitea's ResolveRefCommit: a branch of that name, else a tag, else a commit id (7 to 64 hex
 * digits). One `cat-file --batch-check` answers all three (lookupObjects): the candidates
 * travel on stdin, where git never reads an option.
 */
export async function resolveRevision(gitDir: string, revision: string): Promise<ResolvedRevision | undefined> {
  if (!revision || /[\x00-\x1f\x7f]/.test(revision)) return undefined;
  const candidates: Array<{ kind: RefKind; spec: string }> = [
    { kind: 'branch', spec: `refs/heads/${revision}^{commit}` },
    { kind: 'tag', spec: `refs/tags/${revision}^{commit}` },
  ];
  if (/^[0-9a-f]{7,64}$/.test(revision)) candidates.push({ kind: 'commit', spec: `${revision}^{commit}` });
  const found = await lookupObjects(gitDir, candidates.map((c) => c.spec));
  for (const { kind, spec } of candidates) {
    const object = found.get(spec);
    if (object?.type === 'commit') return { kind, name: kind === 'commit' ? object.sha : revision, commitSha: object.sha };
  }
  return undefined;
}

/**
 * The entries at `paths` in `treeish` (a commit or tree id), with every tree on the way
 * (`-t`), keyed by full path. Missing paths are simply absent.
 */
export async function entriesAt(gitDir: string, treeish: string, paths: string[]): Promise<Map<string, TreeEntry>> {
  if (paths.length === 0) return new Map();
  const cmd = git('ls-tree', { gitDir }).flag('-t', '-l', '-z', '--full-tree').oid(treeish).env('GIT_LITERAL_PATHSPECS', '1').paths(...paths);
  const text = await runGit(cmd.build());
  return new Map(parseLsTree(text).map((e) => [e.path, e]));
}

/** A tree's direct entries (`treeSha` from entriesAt or a commit id for the root); paths get `prefix/`. */
export async function listTree(gitDir: string, treeish: string, prefix: string): Promise<TreeEntry[]> {
  const text = await runGit(git('ls-tree', { gitDir }).flag('-l', '-z').oid(treeish).build());
  return parseLsTree(text).map((e) => ({ ...e, path: prefix ? `${prefix}/${e.path}` : e.path }));
}


const FIELD = '\x1f';
const RECORD = '\x1e';

/** The newest commit reachable from `commit` that changed `path` ('' = any). */
export async function lastCommitOf(gitDir: string, commit: string, path: string): Promise<LastCommit | undefined> {
  const cmd = git('log', { gitDir }).flag('-1', `--format=%H${FIELD}%at${FIELD}%ct${FIELD}%B`).oid(commit).env('GIT_LITERAL_PATHSPECS', '1');
  if (path) cmd.paths(path);
  const out = await runGit(cmd.build());
  if (!out) return undefined;
  const [sha, at, ct, ...message] = out.split(FIELD);
  // log ends its one record with a newline of its own after the raw message.
  return { sha, authorTime: Number(at), committerTime: Number(ct), message: message.join(FIELD).replace(/\n$/, '') };
}

/**
 * The last commit of each of `names` (entries of directory `dir`), from ONE walk of the
 * history limited to the directory: each commit's changed paths settle the entries they
 * touch, and the walk stops as soon as every entry is settled.
 */
export function lastCommitsOfEntries(gitDir: string, commit: string, dir: string, names: string[]): Promise<Map<string, LastCommit>> {
  const found = new Map<string, LastCommit>();
  const wanted = new Set(names);
  if (wanted.size === 0) return Promise.resolve(found);
  const cmd = git('log', { gitDir })
    .flag(`--format=${RECORD}%H${FIELD}%at${FIELD}%ct${FIELD}%B${FIELD}`, '--name-only', '--no-renames', '-z')
    .oid(commit).env('GIT_LITERAL_PATHSPECS', '1');
  if (dir) cmd.paths(dir);
  const child = spawnGit(cmd.build());
  const prefix = dir ? `${dir}/` : '';
  let buffered = '';
  let done = false;
  return new Promise((resolve, reject) => {
    const settle = (record: string) => {
      const [sha, at, ct, message, files = ''] = record.split(FIELD);
      const info = { sha, authorTime: Number(at), committerTime: Number(ct), message };
      for (const file of files.split(/[\0\n]/)) {
        if (!file.startsWith(prefix)) continue;
        const name = file.slice(prefix.length).split('/')[0];
        if (wanted.has(name) && !found.has(name)) found.set(name, info);
      }
    };
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      if (done) return;
      buffered += chunk;
      const records = buffered.split(RECORD);
      buffered = records.pop() ?? '';
      for (const record of records) if (record) settle(record);
      if (found.size === wanted.size) {
        done = true;
        child.kill();
        resolve(found);
      }
    });
    child.stderr!.resume();
    child.on('error', reject);
    child.on('close', () => {
      if (done) return;
      if (buffered) settle(buffered);
      done = true;
      resolve(found);
    });
    child.stdin!.end();
  });
}

/** The `url` of submodule `path` in the commit's .gitmodules, if any. */
export async function submoduleUrl(objects: RepositoryObjects, commit: string, path: string): Promise<string | undefined> {
  const modules = (await objects.entriesAt(commit, ['.gitmodules'])).get('.gitmodules');
  if (!modules || modules.type !== 'blob') return undefined;
  const text = (await objects.blob(modules.sha))?.toString('utf8') ?? '';
  let current: string | undefined;
  let url: string | undefined;
  const urls = new Map<string, string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      if (current && url) urls.set(current, url);
      current = undefined;
      url = undefined;
      continue;
    }
    const [key, ...rest] = line.split('=');
    if (key.trim() === 'path') current = rest.join('=').trim();
    if (key.trim() === 'url') url = rest.join('=').trim();
  }
  if (current && url) urls.set(current, url);
  return urls.get(path);
}
