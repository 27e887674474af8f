// What a push does to the pulls of a repository, in the consumer's transaction: find the
// open pulls whose head or base is the pushed branch, store their new git facts, mark the
// ones whose head the base now contains as merged, and write their events.
import type { ChangeContext } from '../domain/issue-store.js';
import type { PullAction, PullGitFacts } from '../domain/pull-store.js';
import { outboxRowOfPullEvent } from '../events/pull-events.js';
import { Prisma } from './generated/client.js';
import { queryRows, type CollaborationTx } from './db.js';
import { moveIssueCount } from './issue-counts.js';
import { readIssue } from './issue-rows.js';
import { findPullIn } from './pulls.js';
import { headRepositoryOf } from './fork-repositories.js';

export interface OpenPull {
  issueId: number;
  index: number;
  /** The base repository (the pushed one, unless the pull's head is a fork that was pushed). */
  repositoryId: number;
  baseBranch: string;
  headBranch: string;
  /** The head's repository: the base's own id, or a fork's. */
  headRepoId: number;
  headSha: string;
  /** The git facts stored for it against its head and base. */
  stored: { mergeBase: string; status: string; conflictedFiles: string[]; additions: number; deletions: number; changedFiles: number };
}

/**
 * Whether any pull request, open or not, has the pushed branch as its base (it shows the
 * branch's head as base.sha) or its head. A push to a branch no pull touches (most pushes)
 * needs nothing of collaboration: one indexed statement instead of a transaction.
 */
export async function anyPullOnBranch(db: CollaborationTx, repositoryId: number, branch: string): Promise<boolean> {
  const id = BigInt(repositoryId);
  const [row] = await queryRows<{ found: boolean }>(db, Prisma.sql`
    SELECT EXISTS (SELECT 1 FROM pull_request WHERE repository_id = ${id} AND base_branch = ${branch})
        OR EXISTS (SELECT 1 FROM pull_request WHERE head_repo_id = ${id} AND head_branch = ${branch}) AS found`, 'any-pull-on-branch');
  return row?.found === true;
}

/**
 * Locks the issue rows first (by id), as every other pull writer does (markMerged), so a
 * push and a merge recording the same pull wait for each other instead of deadlocking.
 */
export async function openPullsOnBranch(tx: CollaborationTx, repositoryId: number, branch: string, options: { lock: boolean } = { lock: true }): Promise<OpenPull[]> {
  const id = BigInt(repositoryId);
  // The pushed branch is the base of pulls of this repository, or the head of pulls whose
  // head lives here: pulls of this repository from its own branches, and pulls of other
  // repositories from this one (it is their fork, or their parent).
  // Outside a transaction (the consumer's look before it compares), on the pg pool: a base
  // may have thousands of open pulls, and pg reads rows for a fraction of Prisma's CPU.
  const rows = await queryRows<{
    issue_id: bigint | string; index: bigint | string; repository_id: bigint | string; base_branch: string; head_branch: string;
    head_repo_id: bigint | string; head_sha: string; merge_base: string; status: string; conflicted_files: string[];
    additions: number; deletions: number; changed_files: number;
  }>(tx, Prisma.sql`
    SELECT pr.issue_id, i.index, pr.repository_id, pr.base_branch, pr.head_branch, pr.head_repo_id, pr.head_sha,
        pr.merge_base, pr.status, pr.conflicted_files, pr.additions, pr.deletions, pr.changed_files
      FROM pull_request pr JOIN issue i ON i.id = pr.issue_id
    WHERE NOT i.is_closed AND NOT pr.has_merged
      AND ((pr.repository_id = ${id} AND pr.base_branch = ${branch}) OR (pr.head_repo_id = ${id} AND pr.head_branch = ${branch}))
    ORDER BY i.id
    ${options.lock ? Prisma.sql`FOR UPDATE OF i` : Prisma.empty}`, `open-pulls-on-branch-${options.lock ? 'locked' : 'read'}`);
  return rows.map((r) => ({
    issueId: Number(r.issue_id), index: Number(r.index), repositoryId: Number(r.repository_id), baseBranch: r.base_branch,
    headBranch: r.head_branch, headRepoId: Number(r.head_repo_id), headSha: r.head_sha,
    stored: {
      mergeBase: r.merge_base, status: r.status, conflictedFiles: r.conflicted_files, additions: r.additions, deletions: r.deletions, changedFiles: r.changed_files,
    },
  }));
}

async function publish(tx: CollaborationTx, context: ChangeContext, issueId: number, action: PullAction): Promise<void> {
  const pull = await findPullIn(tx, Prisma.sql`i.id = ${BigInt(issueId)}`);
  if (pull) await tx.outboxEvent.create({ data: outboxRowOfPullEvent(context, pull, action, { headRepository: await headRepositoryOf(tx, pull) }) });
}

/** Whether `facts` are what is stored for the pull already (the status as storeFacts writes it). */
function storedAlready(pull: OpenPull, facts: PullGitFacts): boolean {
  const { stored } = pull;
  return facts.headSha === pull.headSha && facts.mergeBase === stored.mergeBase && (facts.mergeable ? 'mergeable' : 'conflict') === stored.status
    && facts.additions === stored.additions && facts.deletions === stored.deletions && facts.changedFiles === stored.changedFiles
    && facts.conflictedFiles.length === stored.conflictedFiles.length && facts.conflictedFiles.every((f, i) => f === stored.conflictedFiles[i]);
}

/**
 * New facts for a pull; `synchronized` when its head moved. `pull`: as read under its lock in
 * this transaction. Facts that changed nothing write nothing: a base that moves on usually
 * leaves every pull on it as it was, and a base may have thousands of open pulls.
 */
export async function storeFacts(tx: CollaborationTx, context: ChangeContext, pull: OpenPull, facts: PullGitFacts): Promise<void> {
  if (storedAlready(pull, facts)) return;
  await tx.pullRequest.update({
    where: { issue_id: BigInt(pull.issueId) },
    data: {
      head_sha: facts.headSha, merge_base: facts.mergeBase, status: facts.mergeable ? 'mergeable' : 'conflict', conflicted_files: facts.conflictedFiles,
      additions: facts.additions, deletions: facts.deletions, changed_files: facts.changedFiles,
    },
  });
  if (facts.headSha !== pull.headSha) {
    await tx.issue.update({ where: { id: BigInt(pull.issueId) }, data: { updated_at: new Date() } });
    await publish(tx, context, pull.issueId, 'synchronized');
  }
}

/** Gitea's manually-merged detection: the base contains the head, so the pull is merged. */
export async function storeManualMerge(tx: CollaborationTx, context: ChangeContext, pull: Omit<OpenPull, 'stored'>, merge: { headSha: string; mergeCommitSha: string; mergedById: number }): Promise<void> {
  const now = new Date();
  await tx.pullRequest.update({
    where: { issue_id: BigInt(pull.issueId) },
    data: { has_merged: true, merged_at: now, merged_by_id: merge.mergedById > 0 ? BigInt(merge.mergedById) : null, merge_commit_sha: merge.mergeCommitSha, head_sha: merge.headSha, status: 'mergeable' },
  });
  const issue = await readIssue(tx, Prisma.sql`i.id = ${BigInt(pull.issueId)}`);
  if (issue && !issue.isClosed) {
    await tx.issue.update({ where: { id: BigInt(pull.issueId) }, data: { is_closed: true, closed_at: now, updated_at: now } });
    await moveIssueCount(tx, issue.repositoryId, { isPull: true, isClosed: false }, { isPull: true, isClosed: true });
  }
  await publish(tx, context, pull.issueId, 'closed');
}
