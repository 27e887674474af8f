// Bringing a pull's head branch up to date with its base (Gitea's services/pull/update.go,
// POST /pulls/{index}/update): merge the base into the head, or rebase the head onto the
// base. Like a merge it is built with plumbing, passes THE protection check for the head
// branch (a rebase is a force push there) and lands with `update-ref <head> <new> <old>` in
// the repository's write turn; a head pushed meanwhile answers push-out-of-date.
import { DomainError, forbidden, notFound, type Caller } from '@anvil/kit';
import { checkProtectedPush } from './branch-protection.js';
import { isBranchName, publishRefMove, pusherOf } from './branches.js';
import { atLeast } from './permission.js';
import { resolveSide } from './pull-git.js';
import { rebaseOnto, type PullMergeDeps } from './pull-merge.js';
import type { RepositoryAccess } from './repositories.js';

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

const conflict = (style: string) => new DomainError('conflict', `${style} failed because of conflict`, `${style}_conflict`);

/** Updates the head branch of `access`'s repository from the base. Run it (and resolve `access`) in the repository's write turn. */
export async function updatePullHead(deps: PullMergeDeps, access: RepositoryAccess, input: UpdateInput, caller: Caller): Promise<UpdateResult> {
  const repo = access.repository;
  if (repo.archived) throw forbidden('repo is archived', 'repo_archived');
  const rebase = input.style === 'rebase';
  const settings = repo.pull_request_settings;
  // Gitea's IsUserAllowedToUpdate: someone who may push to the head branch, in a style the repository allows.
  if (!atLeast(access.permission, 'write') || (rebase ? !settings.allow_rebase_update : !settings.allow_merge_update)) {
    throw forbidden('user is not allowed to update this pull request', 'update_not_allowed');
  }
  if (!isBranchName(input.headBranch)) throw notFound(`head does not exist [head: ${input.headBranch}]`, 'head_not_found');
  const git = deps.pullGit(repo.owner_login, repo.name);
  const baseSha = await resolveSide(git, `refs/heads/${input.baseBranch}`, 'base');
  const headSha = await resolveSide(git, `refs/heads/${input.headBranch}`, 'head');
  // Nothing to bring in: the head already has the base.
  if (await git.isAncestor(baseSha, headSha)) return { headBefore: headSha, headSha };

  const who = await deps.signatureOf(caller);
  const committer = { ...who, time: Math.floor(Date.now() / 1000) };
  let newSha: string;
  if (rebase) {
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
  const pusher = await pusherOf(deps.store, access, caller);
  const decision = await checkProtectedPush({
    rules, defaultBranch: repo.default_branch, branch: input.headBranch, pusher, oldSha: headSha, newSha,
  }, { ...deps.branches.git.facts(repo.owner_login, repo.name), isAncestor: (a, b) => git.isAncestor(a, b) });
  if (!decision.allowed) throw new DomainError('forbidden', decision.message, 'push_rejected');
  try {
    await git.updateRef(`refs/heads/${input.headBranch}`, newSha, headSha);
  } catch {
    throw new DomainError('conflict', 'update push out of date', 'push_out_of_date');
  }
  await publishRefMove(deps.branches, access, caller, input.headBranch, headSha, newSha);
  return { headBefore: headSha, headSha: newSha };
}
