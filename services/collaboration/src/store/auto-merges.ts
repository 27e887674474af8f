// Scheduled merges (pull_auto_merge), one row per pull.
import type { AutoMerge, AutoMergeStore } from '../domain/auto-merge.js';
import type { CollaborationDb, CollaborationTx } from './db.js';

type Row = { issue_id: bigint; repository_id: bigint; doer_id: bigint; doer_login: string; style: string; message: string; delete_branch_after_merge: boolean };

export const toAutoMerge = (r: Row): AutoMerge => ({
  issueId: Number(r.issue_id), repositoryId: Number(r.repository_id), doerId: Number(r.doer_id), doerLogin: r.doer_login,
  style: r.style, message: r.message, deleteBranchAfterMerge: r.delete_branch_after_merge,
});

export function autoMergeStore(db: CollaborationDb): AutoMergeStore {
  return {
    async schedule(merge) {
      const inserted = await db.$queryRaw<Array<{ id: bigint }>>`
        INSERT INTO pull_auto_merge (issue_id, repository_id, doer_id, doer_login, style, message, delete_branch_after_merge)
        VALUES (${BigInt(merge.issueId)}, ${BigInt(merge.repositoryId)}, ${BigInt(merge.doerId)}, ${merge.doerLogin}, ${merge.style}, ${merge.message}, ${merge.deleteBranchAfterMerge})
        ON CONFLICT (issue_id) DO NOTHING RETURNING id`;
      return inserted.length > 0;
    },
    async find(issueId) {
      const row = await db.pullAutoMerge.findUnique({ where: { issue_id: BigInt(issueId) } });
      return row ? toAutoMerge(row) : undefined;
    },
    async remove(issueId) {
      await db.pullAutoMerge.deleteMany({ where: { issue_id: BigInt(issueId) } });
    },
  };
}

export interface DueAutoMerge extends AutoMerge {
  index: number;
  baseBranch: string;
  headBranch: string;
  headSha: string;
  title: string;
}

/** The scheduled merges of open pulls whose head is `sha`, their issue rows locked (as pull writers do). */
export async function autoMergesAtHead(tx: CollaborationTx, repositoryId: number, sha: string): Promise<DueAutoMerge[]> {
  const rows = await tx.$queryRaw<Array<Row & { index: bigint; base_branch: string; head_branch: string; head_sha: string; title: string }>>`
    SELECT am.*, i.index, i.title, pr.base_branch, pr.head_branch, pr.head_sha
    FROM pull_auto_merge am JOIN pull_request pr ON pr.issue_id = am.issue_id JOIN issue i ON i.id = am.issue_id
    WHERE am.repository_id = ${BigInt(repositoryId)} AND pr.head_sha = ${sha} AND NOT pr.has_merged AND NOT i.is_closed
    ORDER BY i.id
    FOR UPDATE OF i`;
  return rows.map((r) => ({ ...toAutoMerge(r), index: Number(r.index), baseBranch: r.base_branch, headBranch: r.head_branch, headSha: r.head_sha, title: r.title }));
}
