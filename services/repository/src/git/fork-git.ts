// Git work of forks, between two repositories of this storage root (both paths come from
// RepositoryStorage.pathOf): the fork's clone, and a fork's branch fetched into its base
// (Gitea fetches a pull's head from the head repository into refs/pull/<index>/head).
import { git, runGit } from './command.js';
import type { ForkHeadGit } from '../domain/fork-heads.js';
import { setHead, type RepositoryStorage } from './storage.js';

/**
 * A bare clone of `source`'s branches and tags (as Gitea's ForkRepository clones) into a
 * reserved staging directory; objects are hard-linked, which is safe because git never
 * rewrites an object file. The clone forgets where it came from.
 */
export async function cloneForFork(storage: RepositoryStorage, source: string, defaultBranch: string): Promise<string> {
  const staged = await storage.reserveStaged();
  try {
    await runGit(git('clone', { localSource: true }).flag('--bare', '--quiet').afterEndOfOptions(source, staged).build());
    await runGit(git('config', { gitDir: staged }).flag('--remove-section').arg('remote.origin').build());
    // The parent's default branch, also when it is empty (a clone of nothing picks git's own).
    await setHead(staged, defaultBranch);
    await storage.markStaged(staged);
    return staged;
  } catch (err) {
    await storage.discard(staged, undefined).catch(() => undefined);
    throw err;
  }
}

/**
 * Fetches `branch` of the repository at `source` into `target` as `ref` (forced: a fork's
 * branch may be rewritten) and answers the commit it now names. No tags, no FETCH_HEAD.
 */
export async function fetchBranchInto(target: string, source: string, branch: string, ref: string): Promise<string> {
  await runGit(git('fetch', { gitDir: target, localSource: true })
    .flag('--quiet', '--no-tags', '--no-write-fetch-head', '--no-auto-gc')
    .afterEndOfOptions(source, `+refs/heads/${branch}:${ref}`).build());
  return (await runGit(git('rev-parse', { gitDir: target }).flag('--verify', '--quiet').ref(ref).build())).trim();
}

/** Deletes `ref` of the repository at `gitDir` (a temporary ref of a fetch). */
export async function deleteRef(gitDir: string, ref: string): Promise<void> {
  await runGit(git('update-ref', { gitDir }).flag('-d').ref(ref).build());
}

/** The ForkHeadGit port over the storage root. */
export function forkHeadGit(storage: RepositoryStorage): ForkHeadGit {
  return {
    fetch: (base, head, branch, ref) => fetchBranchInto(storage.pathOf(base.owner, base.name), storage.pathOf(head.owner, head.name), branch, ref),
    deleteRef: (base, ref) => deleteRef(storage.pathOf(base.owner, base.name), ref),
  };
}
