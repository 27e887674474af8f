// A pull request whose head is a branch of another repository of the base's network (a fork
// of the base, or the base's own parent: Gitea's parseCompareInfo). Gitea fetches such a
// head from the head repository into the base's refs/pull/<index>/head, so every git
// question about the pull is asked of the base alone; so does this.
import { isValidBranchName, notFound, type Caller } from '@anvil/kit';
import { randomUUID } from 'node:crypto';
import { getRepositoryById, resolveRepository, type RepositoryAccess } from './repositories.js';
import type { RepositoryStore } from './store.js';

export interface RepositoryName {
  owner: string;
  name: string;
}

/** The git side (git/fork-git.ts over the storage root). */
export interface ForkHeadGit {
  /** Fetches `branch` of `head` into `base` as `ref` (forced) and answers its commit. */
  fetch(base: RepositoryName, head: RepositoryName, branch: string, ref: string): Promise<string>;
  deleteRef(base: RepositoryName, ref: string): Promise<void>;
}

export interface ForkPairRequest {
  /** The base by name, or by id (a push consumer knows only ids). */
  base: RepositoryName | { id: number };
  /** The head repository by its owner's login (its place in the network decides which), or by id. */
  head: { owner: string } | { id: number };
}

export interface ForkPair {
  base: RepositoryAccess;
  head: RepositoryAccess;
}

const headRepoNotFound = () => notFound('The head repository does not exist or is not in the base\'s network.', 'head_repo_not_found');

/**
 * The base and head repositories of a pull from another repository, both readable by the
 * caller. A head named by owner is that owner's fork of the base, or the base's parent when
 * they own it (Gitea's order); anything else is head_repo_not_found.
 */
export async function resolveForkPair(store: RepositoryStore, request: ForkPairRequest, caller: Caller): Promise<ForkPair> {
  const base = 'id' in request.base
    ? await getRepositoryById(store, request.base.id, caller)
    : await resolveRepository(store, request.base.owner, request.base.name, caller);
  if ('id' in request.head) {
    const head = await getRepositoryById(store, request.head.id, caller).catch(() => undefined);
    if (!head || head.repository.id === base.repository.id) throw headRepoNotFound();
    return { base, head };
  }
  const headOwner = await store.findOwnerByLogin(request.head.owner);
  if (!headOwner || headOwner.id === base.owner.id) throw headRepoNotFound();
  let headId = (await store.findForkOf(base.repository.id, headOwner.id))?.id;
  if (!headId && base.repository.fork_id) {
    const parent = await store.findById(base.repository.fork_id);
    if (parent?.owner.id === headOwner.id) headId = parent.repository.id;
  }
  if (!headId) throw headRepoNotFound();
  // The caller must be able to read the head repository too (a private fork is 404).
  const head = await getRepositoryById(store, headId, caller).catch(() => undefined);
  if (!head) throw headRepoNotFound();
  return { base, head };
}

const nameOf = (access: RepositoryAccess): RepositoryName => ({ owner: access.owner.login, name: access.repository.name });

/**
 * Copies the head branch into the base: into refs/pull/<index>/head for a pull that exists,
 * else (a pull being opened) only its objects, so the head can be compared with the base
 * before the pull has an index. Run it in the base's write turn. head_not_found when the
 * branch does not exist.
 */
export async function fetchForkHead(git: ForkHeadGit, pair: ForkPair, branch: string, index: number): Promise<string> {
  if (!isValidBranchName(branch)) throw notFound(`branch ${branch} does not exist`, 'head_not_found');
  const ref = index > 0 ? `refs/pull/${index}/head` : `refs/anvil/fork-heads/${randomUUID()}`;
  try {
    return await git.fetch(nameOf(pair.base), nameOf(pair.head), branch, ref);
  } catch (err) {
    if ((err as Error).name === 'GitError') throw notFound(`branch ${branch} does not exist`, 'head_not_found');
    throw err;
  } finally {
    // The objects stay; the ref that brought them leaves. The pull's own ref keeps them once it exists.
    if (index <= 0) await git.deleteRef(nameOf(pair.base), ref).catch(() => undefined);
  }
}
