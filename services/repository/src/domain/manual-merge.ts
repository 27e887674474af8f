// Gitea's "manually merged" mark (services/pull/merge.go MergedManually): the head reached
// the base outside Anvil and the merger names the commit that brought it. Nothing is
// written to git; the commit only has to be a full id of a commit on the base branch.
import { DomainError } from '@anvil/kit';
import type { PullGit } from './pull-git.js';

const wrongCommit = () => new DomainError('conflict', 'Wrong commit ID', 'wrong_commit_id');

/** The commit `commitId` names when it is a full id of a commit on the base; 409 `Wrong commit ID` otherwise. */
export async function manualMergeCommit(git: PullGit, baseSha: string, commitId: string): Promise<string> {
  const id = commitId.trim().toLowerCase();
  if (id.length !== baseSha.length || !/^[0-9a-f]+$/.test(id)) throw wrongCommit();
  const sha = await git.resolve(id);
  if (!sha || !(await git.isAncestor(sha, baseSha))) throw wrongCommit();
  return sha;
}
