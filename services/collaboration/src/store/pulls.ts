// Pull requests in PostgreSQL: the issue row (is_pull) and its pull_request row, written in
// one transaction with their event. The index comes from the same `issue_index` upsert
// issues use, so pulls and issues never share a number; the duplicate-pull check runs under
// that row's lock, so two creators of the same head/base cannot both pass it.
import { outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import type { ChangeContext, Issue } from '../domain/issue-store.js';
import type { Pull, PullAction, PullStatus, PullStore } from '../domain/pull-store.js';
import type { UserProfile } from '../domain/users.js';
import { outboxRowOfPullEvent } from '../events/pull-events.js';
import { Prisma } from './generated/client.js';
import type { CollaborationDb, CollaborationTx } from './db.js';
import { announceIssueCounts, moveIssueCount, takeIssueIndex } from './issue-counts.js';
import { filtersOf, readIssue, SELECT_ISSUE, toIssue, type IssueRow } from './issue-rows.js';
import { rememberUsers } from './users.js';

type Client = CollaborationDb | CollaborationTx;

interface PullRow {
  issue_id: bigint; base_branch: string; head_branch: string; head_repo_id: bigint; head_sha: string; merge_base: string; status: string;
  conflicted_files: string[]; additions: number; deletions: number; changed_files: number; has_merged: boolean;
  merged_at: Date | null; merged_by_id: bigint | null; merge_commit_sha: string; merged_by: UserProfile | null;
}

/** The pull rows of some issues, with the merger's profile, in one statement. */
async function pullRows(db: Client, issueIds: number[]): Promise<Map<number, PullRow>> {
  if (!issueIds.length) return new Map();
  const rows = await db.$queryRaw<PullRow[]>`
    SELECT pr.*, u.profile AS merged_by FROM pull_request pr LEFT JOIN "user" u ON u.id = pr.merged_by_id
    WHERE pr.issue_id = ANY(${issueIds.map(BigInt)}::bigint[])`;
  return new Map(rows.map((r) => [Number(r.issue_id), r]));
}

function toPull(issue: Issue, row: PullRow): Pull {
  return {
    issue, baseBranch: row.base_branch, headBranch: row.head_branch, headRepoId: Number(row.head_repo_id), headSha: row.head_sha,
    mergeBase: row.merge_base, status: row.status as PullStatus, conflictedFiles: row.conflicted_files, additions: row.additions,
    deletions: row.deletions, changedFiles: row.changed_files, hasMerged: row.has_merged, mergedAt: row.merged_at ?? undefined,
    mergedBy: row.merged_by ? { ...row.merged_by, id: Number(row.merged_by.id) } : undefined, mergeCommitSha: row.merge_commit_sha,
  };
}

/** One pull by a condition on its issue (`i.`), in any client or transaction. */
export async function findPullIn(db: Client, where: Prisma.Sql): Promise<Pull | undefined> {
  return readPull(db, where);
}

async function readPull(db: Client, where: Prisma.Sql): Promise<Pull | undefined> {
  const issue = await readIssue(db, where);
  if (!issue || !issue.isPull) return undefined;
  const row = (await pullRows(db, [issue.id])).get(issue.id);
  return row ? toPull(issue, row) : undefined;
}

const byId = (id: number) => Prisma.sql`i.id = ${BigInt(id)}`;
const byIndex = (repositoryId: number, index: number) => Prisma.sql`i.repository_id = ${BigInt(repositoryId)} AND i.index = ${BigInt(index)}`;

export function pullStore(db: CollaborationDb, options: OutboxStoreOptions = {}): PullStore {
  const inTransaction = <R>(work: (tx: CollaborationTx, publish: (context: ChangeContext, pull: Pull, action: PullAction) => Promise<void>) => Promise<R>) =>
    outboxTransaction(db, (tx: CollaborationTx, published: string[]) => ({
      tx,
      async publish(context: ChangeContext, pull: Pull, action: PullAction) {
        const row = outboxRowOfPullEvent(context, pull, action);
        await tx.outboxEvent.create({ data: row });
        published.push(row.id);
      },
    }), ({ tx, publish }) => work(tx, publish), options);

  return {
    create(context, issue, pull) {
      return inTransaction(async (tx, publish) => {
        await rememberUsers(tx, context.knownUsers);
        const repositoryId = BigInt(context.repository.id);
        const { index: max_index, counts } = await takeIssueIndex(tx, context.repository.id, { isPull: true, isClosed: false });
        const [{ count }] = await tx.$queryRaw<Array<{ count: bigint }>>`
          SELECT count(*) AS count FROM pull_request pr JOIN issue i ON i.id = pr.issue_id
          WHERE pr.repository_id = ${repositoryId} AND pr.head_branch = ${pull.headBranch} AND pr.base_branch = ${pull.baseBranch}
            AND NOT i.is_closed AND NOT pr.has_merged`;
        // Throwing rolls back the index taken above, so a refused pull uses no number.
        if (Number(count) > 0) throw new DuplicatePull();
        await announceIssueCounts(tx, context.repository.id, counts);
        const now = new Date();
        const created = await tx.issue.create({
          data: {
            repository_id: repositoryId, index: max_index, poster_id: BigInt(issue.posterId), title: issue.title, body: issue.body, ref: '',
            is_pull: true, milestone_id: issue.milestoneId ? BigInt(issue.milestoneId) : null,
            due_date: issue.dueDate ?? null, created_at: now, updated_at: now,
            labels: { createMany: { data: issue.labelIds.map((id) => ({ label_id: BigInt(id) })) } },
            assignees: { createMany: { data: issue.assigneeIds.map((id) => ({ user_id: BigInt(id) })) } },
            mentions: { createMany: { data: issue.mentionedIds.map((id) => ({ user_id: BigInt(id) })) } },
          },
          select: { id: true },
        });
        await tx.pullRequest.create({
          data: {
            issue_id: created.id, repository_id: repositoryId, base_branch: pull.baseBranch, head_branch: pull.headBranch,
            head_repo_id: BigInt(pull.headRepoId), head_sha: pull.headSha, merge_base: pull.mergeBase,
            status: pull.mergeable ? 'mergeable' : 'conflict', conflicted_files: pull.conflictedFiles,
            additions: pull.additions, deletions: pull.deletions, changed_files: pull.changedFiles,
          },
        });
        if (issue.milestoneId) {
          await tx.$executeRaw`UPDATE milestone SET open_issues = open_issues + 1 WHERE id = ${BigInt(issue.milestoneId)}`;
        }
        const stored = (await readPull(tx, byId(Number(created.id))))!;
        // ONE opened event: labels, assignees and milestone set at creation add none.
        await publish(context, stored, 'opened');
        return stored;
      }).catch((err) => {
        if (err instanceof DuplicatePull) return undefined;
        throw err;
      });
    },

    find: (repositoryId, index) => readPull(db, byIndex(repositoryId, index)),

    async findByBranches(repositoryId, baseBranch, headBranch) {
      const [row] = await db.$queryRaw<Array<{ issue_id: bigint }>>`
        SELECT issue_id FROM pull_request WHERE repository_id = ${BigInt(repositoryId)} AND base_branch = ${baseBranch} AND head_branch = ${headBranch}
        ORDER BY issue_id DESC LIMIT 1`;
      return row ? readPull(db, byId(Number(row.issue_id))) : undefined;
    },

    async list({ repository }, query) {
      // The page's ids first (the (repository_id, is_pull, is_closed, id) index, no per-row
      // JSON), then the issue rows of those ids only: a page costs the same with 3,000 pulls
      // as with 30.
      const where = Prisma.join(filtersOf(repository, query), ' AND ');
      const page = await db.$queryRaw<Array<{ id: bigint; total: bigint }>>`
        SELECT i.id, count(*) OVER () AS total FROM issue i WHERE ${where} ORDER BY i.id DESC LIMIT ${query.limit} OFFSET ${query.offset}`;
      let total = Number(page[0]?.total ?? 0);
      if (!page.length && query.offset > 0) {
        const [{ count }] = await db.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) AS count FROM issue i WHERE ${where}`;
        total = Number(count);
      }
      if (!page.length) return { items: [], total };
      const ids = page.map((p) => p.id);
      const issueRows = await db.$queryRaw<IssueRow[]>`${SELECT_ISSUE} FROM issue i LEFT JOIN "user" p ON p.id = i.poster_id
        WHERE i.id = ANY(${ids}::bigint[]) ORDER BY i.id DESC`;
      const rows = await pullRows(db, issueRows.map((r) => Number(r.id)));
      return { items: issueRows.flatMap((r) => (rows.has(Number(r.id)) ? [toPull(toIssue(r), rows.get(Number(r.id))!)] : [])), total };
    },

    changeBase(context, index, baseBranch, facts) {
      return inTransaction(async (tx, publish) => {
        await rememberUsers(tx, context.knownUsers);
        // The issue row first (as every pull writer), then the repository's index row, under
        // which creation checks duplicates too.
        const locked = await tx.$queryRaw<Array<{ id: bigint; head_branch: string }>>`
          SELECT i.id, pr.head_branch FROM issue i JOIN pull_request pr ON pr.issue_id = i.id
          WHERE i.repository_id = ${BigInt(context.repository.id)} AND i.index = ${BigInt(index)} FOR UPDATE OF i`;
        if (!locked.length) return undefined;
        await tx.$queryRaw`SELECT 1 FROM issue_index WHERE repository_id = ${BigInt(context.repository.id)} FOR UPDATE`;
        const [{ count }] = await tx.$queryRaw<Array<{ count: bigint }>>`
          SELECT count(*) AS count FROM pull_request pr JOIN issue i ON i.id = pr.issue_id
          WHERE pr.repository_id = ${BigInt(context.repository.id)} AND pr.head_branch = ${locked[0].head_branch} AND pr.base_branch = ${baseBranch}
            AND NOT i.is_closed AND NOT pr.has_merged`;
        if (Number(count) > 0) return 'duplicate' as const;
        await tx.pullRequest.update({
          where: { issue_id: locked[0].id },
          data: {
            base_branch: baseBranch, head_sha: facts.headSha, merge_base: facts.mergeBase, status: facts.mergeable ? 'mergeable' : 'conflict',
            conflicted_files: facts.conflictedFiles, additions: facts.additions, deletions: facts.deletions, changed_files: facts.changedFiles,
          },
        });
        await tx.issue.update({ where: { id: locked[0].id }, data: { updated_at: new Date() } });
        const changed = (await readPull(tx, byId(Number(locked[0].id))))!;
        await publish(context, changed, 'edited');
        return changed;
      });
    },

    markMerged(context, index, merge) {
      return inTransaction(async (tx, publish) => {
        await rememberUsers(tx, context.knownUsers);
        const locked = await tx.$queryRaw<Array<{ id: bigint; is_closed: boolean }>>`
          SELECT id, is_closed FROM issue WHERE repository_id = ${BigInt(context.repository.id)} AND index = ${BigInt(index)} AND is_pull FOR UPDATE`;
        if (!locked.length) return undefined;
        const id = locked[0].id;
        const now = new Date();
        await tx.pullRequest.update({
          where: { issue_id: id },
          data: { has_merged: true, merged_at: now, merged_by_id: BigInt(merge.mergedById), merge_commit_sha: merge.mergeCommitSha, head_sha: merge.headSha },
        });
        if (!locked[0].is_closed) {
          await tx.issue.update({ where: { id }, data: { is_closed: true, closed_at: now, updated_at: now } });
          await moveIssueCount(tx, context.repository.id, { isPull: true, isClosed: false }, { isPull: true, isClosed: true });
        }
        const merged = (await readPull(tx, byId(Number(id))))!;
        await publish(context, merged, 'closed');
        return merged;
      });
    },
  };
}

class DuplicatePull extends Error {}
