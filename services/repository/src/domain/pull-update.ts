// Bringing a pull's head branch up to date with its base (Gitea's services/pull/update.go,
// POST /pulls/{index}/update): merge the base into the head, or rebase the head onto the
// base. Like a merge it is built with plumbing, passes THE protection check for the head
// branch (a rebase is a force push there) and lands with `update-ref <head> <new> <old>` in
// the head repository's write turn; a head pushed meanwhile answers push-out-of-date. The
// head branch of a pull from a fork is the fork's: the base branch is fetched into the fork
// first, and the update lands there.
import { DomainError, forbidden, notFound, type Caller } from '@anvil/kit';
import { randomUUID } from 'node:crypto';
import { checkProtectedPush } from './branch-protection.js';
import { isBranchName, publishRefMove, pusherOf } from './branches.js';
import type { ForkHeadGit } from './fork-heads.js';
import { isInNetworkOf } from './forks.js';
import { atLeast } from './permission.js';
import { resolveSide } from './pull-git.js';
import { rebaseOnto, type PullMergeDeps } from './pull-merge.js';
import { withPermissions, type RepositoryAccess } from './repositories.js';

export interface UpdateInput {
  baseBranch: string;
  headBranch: string;
  /** merge or rebase. */
  style: string;
}

export interface UpdateResult {
  headBefore: string;
  headSha: string;
}

/** Runs `work` in the write turn of owner/name (domain/write-lock.ts). */
export type InWriteTurn = <T>(owner: string, name: string, work: () => Promise<T>) => Promise<T>;

const conflict = (style: string) => new DomainError('conflict', `${style} failed because of conflict`, `${style}_conflict`);

/**
 * Gitea's IsUserAllowedToUpdate: someone who may push to the head repository, in a style the
 * base repository allows (its settings decide also for a fork's head). The head branch's
 * protection rule is asked once the new commit is known. Gitea's second way in, a base
 * maintainer on a pull that allows maintainer edits, does not apply: Anvil's pulls never
 * allow them (allow_maintainer_edit is false).
 */
function checkMayUpdate(head: RepositoryAccess, base: RepositoryAccess, rebase: boolean): void {
  if (base.repository.archived || head.repository.archived) throw forbidden('repo is archived', 'repo_archived');
  const settings = base.repository.pull_request_settings;
  if (!atLeast(head.permission, 'write') || (rebase ? !settings.allow_rebase_update : !settings.allow_merge_update)) {
    throw forbidden('user is not allowed to update this pull request', 'update_not_allowed');
  }
}

/** Updates the head branch of `access`'s repository from the base. Run it (and resolve `access`) in the repository's write turn. */
export async function updatePullHead(deps: PullMergeDeps, access: RepositoryAccess, input: UpdateInput, caller: Caller): Promise<UpdateResult> {
  checkMayUpdate(access, access, input.style === 'rebase');
  const baseSha = await resolveSide(deps.pullGit(access.repository.owner_login, access.repository.name), `refs/heads/${input.baseBranch}`, 'base');
  return updateHeadBranch(deps, access, baseSha, input, caller);
}

/**
 * Updates the head branch of a pull from another repository of the base's network (a fork,
 * or the base's parent) from the base branch: the base branch's commits are fetched into the
 * head repository under a temporary ref, and the update lands there in its write turn.
 * `base` is the pull's repository as resolved for the caller.
 */
export async function updateForkPullHead(
  deps: PullMergeDeps & { forkHeads: ForkHeadGit }, base: RepositoryAccess, headRepositoryId: number, input: UpdateInput, caller: Caller, inWriteTurn: InWriteTurn,
): Promise<UpdateResult> {
  const found = await deps.store.findById(headRepositoryId);
  if (!found || !isInNetworkOf(base.repository, found.repository)) {
    throw notFound('The head repository does not exist or is not in the base\'s network.', 'head_repo_not_found');
  }
  const [head] = await withPermissions(deps.store, [found], caller);
  checkMayUpdate(head, base, input.style === 'rebase');
  const headName = { owner: head.owner.login, name: head.repository.name };
  return inWriteTurn(headName.owner, headName.name, async () => {
    const ref = `refs/anvil/pull-update/${randomUUID()}`;
    try {
      const baseSha = await deps.forkHeads.fetch(headName, { owner: base.owner.login, name: base.repository.name }, input.baseBranch, ref).catch((err: unknown) => {
        throw (err as Error).name === 'GitError' ? notFound(`base does not exist [base: ${input.baseBranch}]`, 'base_not_found') : err;
      });
      return await updateHeadBranch(deps, head, baseSha, input, caller);
    } finally {
      // The base's commits stay in the fork only when the update brought them into its branch.
      await deps.forkHeads.deleteRef(headName, ref).catch(() => undefined);
    }
  });
}

/** Merges or rebases `head`'s head branch onto `baseSha` (a commit `head` holds) and moves the branch. */
async function updateHeadBranch(deps: PullMergeDeps, head: RepositoryAccess, baseSha: string, input: UpdateInput, caller: Caller): Promise<UpdateResult> {
  const repo = head.repository;
  if (!isBranchName(input.headBranch)) throw notFound(`head does not exist [head: ${input.headBranch}]`, 'head_not_found');
  const git = deps.pullGit(repo.owner_login, repo.name);
  const headSha = await resolveSide(git, `refs/heads/${input.headBranch}`, 'head');
  // Nothing to bring in: the head already has the base.
  if (await git.isAncestor(baseSha, headSha)) return { headBefore: headSha, headSha };

  const who = await deps.signatureOf(caller);
  const committer = { ...who, time: Math.floor(Date.now() / 1000) };
  let newSha: string;
  if (input.style === 'rebase') {
    newSha = await rebaseOnto(git, baseSha, headSha, committer).catch((err: unknown) => {
      throw err instanceof DomainError && err.reason === 'not_mergeable' ? conflict('rebase') : err;
    });
  } else {
    const merged = await git.trialMerge(headSha, baseSha);
    if (merged.conflicts.length) throw conflict('merge');
    const message = `Merge branch '${input.baseBranch}' into ${input.headBranch}\n`;
    newSha = await git.commitTree({ tree: merged.tree, parents: [headSha, baseSha], message, author: committer, committer });
  }

  const rules = await deps.protections.list(repo.id);
  const pusher = await pusherOf(deps.store, head, caller);
  const decision = await checkProtectedPush({
    rules, defaultBranch: repo.default_branch, branch: input.headBranch, pusher, oldSha: headSha, newSha,
  }, { ...deps.branches.git.facts(repo.owner_login, repo.name), isAncestor: (a, b) => git.isAncestor(a, b) });
  if (!decision.allowed) throw new DomainError('forbidden', decision.message, 'push_rejected');
  try {
    await git.updateRef(`refs/heads/${input.headBranch}`, newSha, headSha);
  } catch {
    throw new DomainError('conflict', 'update push out of date', 'push_out_of_date');
  }
  await publishRefMove(deps.branches, head, caller, input.headBranch, headSha, newSha);
  return { headBefore: headSha, headSha: newSha };
}
