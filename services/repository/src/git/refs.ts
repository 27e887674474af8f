// Reading and writing refs and commits with plumbing, all through the one command builder.
import type { Signature } from '../domain/commit-writing.js';
import type { CommitInfo, RefMap } from '../domain/push.js';

export type { CommitInfo, RefMap } from '../domain/push.js';
import { git, GitError, isObjectId, isSafeRef, runGit, UnsafeArgument } from './command.js';
import { writeCommit } from './file-changes-git.js';
import type { ObjectFormat } from './object-writer.js';


/**
 * The commit a caller's revision (branch, tag, full or short sha) names; undefined when it
 * is not a plain ref name or names no commit. The one resolver for every read and write.
 */
export async function resolveCommit(gitDir: string, revision: string): Promise<string | undefined> {
  if (!isSafeRef(revision)) return undefined;
  try {
    const out = await runGit(git('rev-parse', { gitDir }).flag('--verify', '--quiet').afterEndOfOptions(`${revision}^{commit}`).build());
    const sha = out.trim();
    return isObjectId(sha) ? sha : undefined;
  } catch (err) {
    if (err instanceof GitError) return undefined;
    throw err;
  }
}

/** Every branch and tag: full ref name → object id. */
export async function listRefs(gitDir: string): Promise<RefMap> {
  const out = await runGit(git('for-each-ref', { gitDir }).flag('--format=%(objectname) %(refname)').arg('refs/heads/').arg('refs/tags/').build());
  const refs: RefMap = new Map();
  for (const line of out.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) refs.set(line.slice(space + 1), line.slice(0, space));
  }
  return refs;
}

/**
 * Writes one commit holding `files` on refs/heads/<branch> of an empty repository (the one
 * commit writer, git/file-changes-git.ts), then moves the branch with the expected old value
 * "none" so it never overwrites a branch someone pushed meanwhile. `knownFormat` is the
 * repository's object format when the caller made it; otherwise git is asked.
 */
export async function commitInitialFiles(
  gitDir: string, branch: string, files: Record<string, string>, message: string, who: Omit<Signature, 'time'>,
  knownFormat?: ObjectFormat,
): Promise<string> {
  const objectFormat = knownFormat ?? await objectFormatOf(gitDir);
  const signature = { ...who, time: Math.floor(Date.now() / 1000) };
  const changes = Object.entries(files).map(([path, content]) => ({ path, mode: '100644', content: Buffer.from(content) }));
  const { commitSha } = await writeCommit(gitDir, { changes, message, author: signature, committer: signature, objectFormat });
  const zero = '0'.repeat(commitSha.length);
  await runGit(git('update-ref', { gitDir }).ref(`refs/heads/${branch}`).oid(commitSha).oid(zero).build());
  return commitSha;
}

/** The repository's object format, as git reads it from its config. */
async function objectFormatOf(gitDir: string): Promise<ObjectFormat> {
  return (await runGit(git('rev-parse', { gitDir }).flag('--show-object-format').build())).trim() === 'sha256' ? 'sha256' : 'sha1';
}

const FIELD = '\x1f';
const RECORD = '\x1e';

/**
 * Commits reachable from `after` but not from `exclude` (refs that existed before the
 * push), newest first, at most `limit`, with the files each one changed.
 */
export async function commitsBetween(gitDir: string, after: string, exclude: string[], limit: number): Promise<{ commits: CommitInfo[]; total: number }> {
  if (!exclude.every(isObjectId)) throw new UnsafeArgument('exclude takes object ids only');
  // `^<oid>` of a validated id cannot be read as an option.
  const excluded = exclude.map((oid) => `^${oid}`);
  const countCmd = git('rev-list', { gitDir }).flag('--count').oid(after);
  for (const x of excluded) countCmd.arg(x);
  const logCmd = git('log', { gitDir }).flag(`--max-count=${limit}`, '--name-status', '--no-renames', '-m', '--first-parent',
    `--format=${RECORD}%H${FIELD}%an${FIELD}%ae${FIELD}%at${FIELD}%cn${FIELD}%ce${FIELD}%ct${FIELD}%B${FIELD}`).oid(after);
  for (const x of excluded) logCmd.arg(x);
  // The count and the log side by side: a push (or a merge) waits for the slower, not both.
  // (The first-parent log is no count: a merge commit shows alone but brings its branch.)
  const [counted, out] = await Promise.all([runGit(countCmd.build()), runGit(logCmd.build())]);
  const total = Number(counted.trim()) || 0;
  if (total === 0) return { commits: [], total };
  const commits: CommitInfo[] = [];
  for (const record of out.split(RECORD).slice(1)) {
    const parts = record.split(FIELD);
    const [id, an, ae, at, cn, ce, ct, body] = parts;
    const files = parts[8] ?? '';
    const info: CommitInfo = {
      id, message: body, authorName: an, authorEmail: ae, authorTime: Number(at),
      committerName: cn, committerEmail: ce, committerTime: Number(ct), added: [], removed: [], modified: [],
    };
    for (const line of files.split('\n')) {
      const [status, path] = line.split('\t');
      if (!path) continue;
      if (status === 'A') info.added.push(path);
      else if (status === 'D') info.removed.push(path);
      else info.modified.push(path);
    }
    commits.push(info);
  }
  return { commits, total };
}
