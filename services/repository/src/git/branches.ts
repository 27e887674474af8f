// Branch plumbing: listing branches with their head commit, moving refs with
// `update-ref <ref> <new> <old>` (a concurrent writer makes it fail instead of losing an
// update), and the facts branch protection asks about a push — all through the one builder.
import type { BranchHead } from '../domain/branches.js';
import { git, GitError, isObjectId, isZeroId, runGit } from './command.js';

export type { BranchHead } from '../domain/branches.js';

const FIELD = '\x1f';
const RECORD = '\x1e';
const FORMAT = [
  '%(objectname)', '%(refname)', '%(authorname)', '%(authoremail:trim)', '%(authordate:unix)',
  '%(committername)', '%(committeremail:trim)', '%(committerdate:unix)', '%(contents)',
].join(FIELD);

/** Every branch, in name order, with its head commit. `only` limits to one full ref. */
export async function listBranchHeads(gitDir: string, only?: string): Promise<BranchHead[]> {
  const cmd = git('for-each-ref', { gitDir }).flag(`--format=${RECORD}${FORMAT}`, '--sort=refname');
  if (only) cmd.ref(only);
  else cmd.arg('refs/heads/');
  const out = await runGit(cmd.build());
  return out.split(RECORD).slice(1).map((record) => {
    const [sha, ref, an, ae, at, cn, ce, ct, message] = record.split(FIELD);
    return {
      // for-each-ref ends each record with a newline after %(contents).
      name: ref.slice('refs/heads/'.length), sha, message: message.replace(/\n$/, ''),
      authorName: an, authorEmail: ae, authorTime: Number(at), committerName: cn, committerEmail: ce, committerTime: Number(ct),
    };
  }).filter((b) => !only || `refs/heads/${b.name}` === only);
}

export class RefUpdateConflict extends Error {}

/**
 * Moves `ref` from `oldSha` to `newSha` (all zeros: create / delete) atomically; throws
 * RefUpdateConflict when the ref no longer holds `oldSha` (someone else moved it first).
 */
export async function updateRef(gitDir: string, ref: string, newSha: string, oldSha: string): Promise<void> {
  const cmd = isZeroId(newSha)
    ? git('update-ref', { gitDir }).flag('-d').ref(ref).oid(oldSha)
    : git('update-ref', { gitDir }).ref(ref).oid(newSha).oid(oldSha);
  try {
    await runGit(cmd.build());
  } catch (err) {
    if (err instanceof GitError) throw new RefUpdateConflict(err.stderr.trim());
    throw err;
  }
}

/** Renames a branch in one transaction: create the new ref only if absent, delete the old only if unchanged. */
export async function renameRef(gitDir: string, from: string, to: string, sha: string): Promise<void> {
  if (!isObjectId(sha)) throw new RefUpdateConflict('not an object id');
  const cmd = git('update-ref', { gitDir }).flag('--stdin');
  // Ref names were validated by the caller; the stdin protocol never reads them as options.
  const stdin = `start\ncreate ${to} ${sha}\ndelete ${from} ${sha}\nprepare\ncommit\n`;
  try {
    await runGit(cmd.build(), { stdin });
  } catch (err) {
    if (err instanceof GitError) throw new RefUpdateConflict(err.stderr.trim());
    throw err;
  }
}

/**
 * Where a push's new objects live before git accepts them: receive-pack quarantines them
 * and tells its hooks through these variables; plumbing run on the hook's behalf needs them.
 */
export interface ObjectEnv {
  GIT_OBJECT_DIRECTORY?: string;
  GIT_ALTERNATE_OBJECT_DIRECTORIES?: string;
}

function withObjects(cmd: ReturnType<typeof git>, env: ObjectEnv): ReturnType<typeof git> {
  if (env.GIT_OBJECT_DIRECTORY) cmd.env('GIT_OBJECT_DIRECTORY', env.GIT_OBJECT_DIRECTORY);
  if (env.GIT_ALTERNATE_OBJECT_DIRECTORIES) cmd.env('GIT_ALTERNATE_OBJECT_DIRECTORIES', env.GIT_ALTERNATE_OBJECT_DIRECTORIES);
  return cmd;
}

export async function isAncestor(gitDir: string, ancestor: string, descendant: string, env: ObjectEnv = {}): Promise<boolean> {
  try {
    await runGit(withObjects(git('merge-base', { gitDir }).flag('--is-ancestor').oid(ancestor).oid(descendant), env).build());
    return true;
  } catch (err) {
    if (err instanceof GitError && err.code === 1) return false;
    throw err;
  }
}

export async function changedFiles(gitDir: string, from: string, to: string, env: ObjectEnv = {}): Promise<string[]> {
  const out = await runGit(withObjects(git('diff', { gitDir }).flag('--name-only', '-z', '--no-renames').oid(from).oid(to), env).build());
  return out.split('\0').filter(Boolean);
}
