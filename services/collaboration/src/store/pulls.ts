// Pull requests in PostgreSQL: the issue row (is_pull) and its pull_request row, written in
// one transaction with their event. The index comes from the same `issue_index` upsert
// issues use, so pulls and issues never share a number; the duplicate-pull check runs under
// that row's lock, so two creators of the same head/base cannot both pass it.
import { outboxTransaction, pgOutboxTransaction, type OutboxStoreOptions, type PgTransactionClient } from '@anvil/kit';
import type { ChangeContext, Issue } from '../domain/issue-store.js';
import type { Pull, PullAction, PullStatus, PullStore } from '../domain/pull-store.js';
import { isStale, type TeamSnapshot } from '../domain/reviews.js';
import type { UserProfile } from '../domain/users.js';
import { outboxRowOfPullEvent } from '../events/pull-events.js';
import { Prisma } from './generated/client.js';
import { poolOf, queryRows, type CollaborationDb, type CollaborationTx } from './db.js';
import { announceIssueCounts, countMove, issueCountsRow, takeIssueIndex, type IssueCounts } from './issue-counts.js';
import { filtersOf, SELECT_ISSUE, statementKey, toIssue, type IssueRow } from './issue-rows.js';
import { rememberUsers, rememberUsersOn } from './users.js';
import { headRepositoryOf, headRepositoryOn, rememberFork } from './fork-repositories.js';

type Client = CollaborationDb | CollaborationTx;

interface PullRow {
  issue_id: bigint; base_branch: string; head_branch: string; head_repo_id: bigint; head_owner_login: string; head_sha: string; merge_base: string; status: string;
  conflicted_files: string[]; additions: number; deletions: number; changed_files: number; has_merged: boolean;
  merged_at: Date | null; merged_by_id: bigint | null; merge_commit_sha: string; merged_by: UserProfile | null;
  requested_reviewers: UserProfile[]; requested_teams: TeamSnapshot[]; review_comments: bigint; base_sha: string | null;
}

/**
 * A pull's own columns, its merger's profile and what the pull JSON shows of its reviews, as
 * select-list items over `pr` (pull_request) and `mu` (the merger's "user" row). Each pull's
 * reviews are read by the (issue_id, id) index inside the same statement. As Gitea's
 * GetReviewsByIssueID: a user is listed by their latest review that is not dismissed among
 * APPROVED, REQUEST_CHANGES and REQUEST_REVIEW; a team by its latest request; review_comments
 * counts submitted reviews (Gitea's CommentTypeReview entries).
 */
const PULL_COLUMNS = Prisma.sql`
  pr.issue_id, pr.base_branch, pr.head_branch, pr.head_repo_id, pr.head_owner_login, pr.head_sha, pr.merge_base, pr.status, pr.conflicted_files,
  pr.additions, pr.deletions, pr.changed_files, pr.has_merged, pr.merged_at, pr.merged_by_id, pr.merge_commit_sha, mu.profile AS merged_by,
  (SELECT bh.sha FROM branch_head bh WHERE bh.repository_id = pr.repository_id AND bh.name = pr.base_branch) AS base_sha,
  COALESCE((SELECT json_agg(latest.profile ORDER BY latest.updated_at, latest.id) FROM (
    SELECT DISTINCT ON (r.reviewer_id) r.id, r.updated_at, ru.profile FROM pull_review r JOIN "user" ru ON ru.id = r.reviewer_id
    WHERE r.issue_id = pr.issue_id AND r.team_id = 0 AND NOT r.dismissed AND r.state IN ('APPROVED', 'REQUEST_CHANGES', 'REQUEST_REVIEW')
    ORDER BY r.reviewer_id, r.updated_at DESC, r.id DESC) latest), '[]') AS requested_reviewers,
  COALESCE((SELECT json_agg(latest.team ORDER BY latest.updated_at, latest.id) FROM (
    SELECT DISTINCT ON (r.team_id) r.id, r.updated_at, r.team FROM pull_review r
    WHERE r.issue_id = pr.issue_id AND r.team_id <> 0 AND r.team IS NOT NULL
    ORDER BY r.team_id, r.updated_at DESC, r.id DESC) latest), '[]') AS requested_teams,
  (SELECT count(*) FROM pull_review r WHERE r.issue_id = pr.issue_id AND r.state IN ('APPROVED', 'REQUEST_CHANGES', 'COMMENT')) AS review_comments`;

/**
 * The latest verdict of each reviewer of `pr`, as latestVerdicts (domain/reviews.ts) picks
 * them from the reviews: the newest of theirs that is neither dismissed, pending nor a comment.
 */
const VERDICTS_COLUMN = Prisma.sql`
  COALESCE((SELECT json_agg(json_build_object('reviewer_id', v.reviewer_id, 'state', v.state, 'official', v.official, 'stale', v.stale,
      'commit_id', v.commit_id) ORDER BY v.id) FROM (
    SELECT DISTINCT ON (r.reviewer_id) r.id, r.reviewer_id, r.state, r.official, r.stale, r.commit_id FROM pull_review r
    WHERE r.issue_id = pr.issue_id AND NOT r.dismissed AND r.state NOT IN ('PENDING', 'COMMENT')
    ORDER BY r.reviewer_id, r.id DESC) v), '[]') AS verdicts`;

interface VerdictRow {
  reviewer_id: number;
  state: string;
  official: boolean;
  stale: boolean;
  commit_id: string;
}

function toPull(issue: Issue, row: PullRow): Pull {
  return {
    issue, baseBranch: row.base_branch, headBranch: row.head_branch, headRepoId: Number(row.head_repo_id),
    headOwnerLogin: row.head_owner_login ?? '', headSha: row.head_sha,
    mergeBase: row.merge_base, status: row.status as PullStatus, conflictedFiles: row.conflicted_files, additions: row.additions,
    deletions: row.deletions, changedFiles: row.changed_files, hasMerged: row.has_merged, mergedAt: row.merged_at ?? undefined,
    mergedBy: row.merged_by ? { ...row.merged_by, id: Number(row.merged_by.id) } : undefined, mergeCommitSha: row.merge_commit_sha,
    requestedReviewers: row.requested_reviewers.map((u) => ({ ...u, id: Number(u.id) })), requestedTeams: row.requested_teams,
    reviewComments: Number(row.review_comments), baseSha: row.base_sha ?? '',
  };
}

/** One pull by a condition on its issue (`i.`), in any client or transaction. */
export async function findPullIn(db: Client, where: Prisma.Sql): Promise<Pull | undefined> {
  return readPull(db, where);
}

/**
 * A pull by a condition on its issue (`i.`): the issue's columns and the pull's, in one
 * statement, prepared on the pg pool outside a transaction (the conditions are a fixed few).
 */
async function readPull(db: Client, where: Prisma.Sql): Promise<Pull | undefined> {
  const { sql, name } = pullQuery(where);
  const [row] = await queryRows<IssueRow & PullRow>(db, sql, name);
  return row ? toPull(toIssue(row), row) : undefined;
}

/** readPull on a pg transaction's client (pgOutboxTransaction). */
export async function readPullOn(client: PgTransactionClient, where: Prisma.Sql): Promise<Pull | undefined> {
  const { sql, name } = pullQuery(where);
  const { rows: [row] } = await client.query<IssueRow & PullRow>({ name, text: sql.text, values: sql.values });
  return row ? toPull(toIssue(row), row) : undefined;
}

function pullQuery(where: Prisma.Sql, extra = Prisma.empty): { sql: Prisma.Sql; name: string } {
  const sql = Prisma.sql`
    ${SELECT_ISSUE}, ${PULL_COLUMNS} ${extra}
    FROM issue i LEFT JOIN "user" p ON p.id = i.poster_id
      JOIN pull_request pr ON pr.issue_id = i.id LEFT JOIN "user" mu ON mu.id = pr.merged_by_id
    WHERE ${where}`;
  return { sql, name: `pull-${statementKey(sql.text)}` };
}

const byId = (id: number) => Prisma.sql`i.id = ${BigInt(id)}`;
const byIndex = (repositoryId: number, index: number) => Prisma.sql`i.repository_id = ${BigInt(repositoryId)} AND i.index = ${BigInt(index)}`;

export function pullStore(db: CollaborationDb, options: OutboxStoreOptions = {}): PullStore {
  const inTransaction = <R>(work: (tx: CollaborationTx, publish: (context: ChangeContext, pull: Pull, action: PullAction) => Promise<void>) => Promise<R>) =>
    outboxTransaction(db, (tx: CollaborationTx, published: string[]) => ({
      tx,
      async publish(context: ChangeContext, pull: Pull, action: PullAction) {
        const row = outboxRowOfPullEvent(context, pull, action, { headRepository: await headRepositoryOf(tx, pull) });
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
            AND pr.head_repo_id = ${BigInt(pull.headRepoId)} AND NOT i.is_closed AND NOT pr.has_merged`;
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
            head_repo_id: BigInt(pull.headRepoId), head_owner_login: pull.headOwnerLogin, head_sha: pull.headSha, merge_base: pull.mergeBase,
            status: pull.mergeable ? 'mergeable' : 'conflict', conflicted_files: pull.conflictedFiles,
            additions: pull.additions, deletions: pull.deletions, changed_files: pull.changedFiles,
          },
        });
        if (issue.milestoneId) {
          await tx.$executeRaw`UPDATE milestone SET open_issues = open_issues + 1 WHERE id = ${BigInt(issue.milestoneId)}`;
        }
        // The base's head, from the facts just read from git: pushes to a branch no pull
        // touches are not followed, so for the first pull on a base the stored head may be
        // old and is replaced; once a pull is based on it, every push writes it, and a row
        // the push consumer wrote is newer or equal, so it stays.
        if (pull.baseSha) await rememberBaseHead(tx, repositoryId, pull.baseBranch, pull.baseSha, created.id);
        if (pull.headFork) await rememberFork(tx, pull.headRepoId, pull.headFork);
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

    async findWithVerdicts(repositoryId, index) {
      const { sql, name } = pullQuery(byIndex(repositoryId, index), Prisma.sql`, ${VERDICTS_COLUMN}`);
      const [row] = await queryRows<IssueRow & PullRow & { verdicts: VerdictRow[] }>(db, sql, name);
      if (!row) return undefined;
      const pull = toPull(toIssue(row), row);
      const verdicts = row.verdicts.map((v) => ({
        reviewerId: Number(v.reviewer_id), state: v.state, official: v.official, stale: isStale({ stale: v.stale, commitId: v.commit_id }, pull.headSha),
      }));
      return { pull, verdicts };
    },

    async findByBranches(repositoryId, baseBranch, headBranch, headRepoId) {
      const [row] = await db.$queryRaw<Array<{ issue_id: bigint }>>`
        SELECT issue_id FROM pull_request WHERE repository_id = ${BigInt(repositoryId)} AND base_branch = ${baseBranch} AND head_branch = ${headBranch}
          AND head_repo_id = ${BigInt(headRepoId)}
        ORDER BY issue_id DESC LIMIT 1`;
      return row ? readPull(db, byId(Number(row.issue_id))) : undefined;
    },

    async list({ repository }, query) {
      // One statement: the page's ids (the (repository_id, is_pull, is_closed, id) index, no
      // per-row JSON), then the issue and pull columns of those ids only, so a page costs the
      // same with 3,000 pulls as with 30.
      const where = Prisma.join(filtersOf(repository, query), ' AND ');
      const rows = await db.$queryRaw<Array<IssueRow & PullRow & { page_total: bigint }>>`
        WITH page AS (SELECT i.id, count(*) OVER () AS page_total FROM issue i WHERE ${where} ORDER BY i.id DESC LIMIT ${query.limit} OFFSET ${query.offset})
        ${SELECT_ISSUE}, page.page_total, ${PULL_COLUMNS}
        FROM page JOIN issue i ON i.id = page.id LEFT JOIN "user" p ON p.id = i.poster_id
          JOIN pull_request pr ON pr.issue_id = i.id LEFT JOIN "user" mu ON mu.id = pr.merged_by_id
        ORDER BY i.id DESC`;
      let total = Number(rows[0]?.page_total ?? 0);
      if (!rows.length && query.offset > 0) {
        const [{ count }] = await db.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) AS count FROM issue i WHERE ${where}`;
        total = Number(count);
      }
      return { items: rows.map((r) => toPull(toIssue(r), r)), total };
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

    // On the pg pool rather than in Prisma's interactive transaction: it is on every merge's
    // path, and its statements run while the merge's push is being consumed (pg-outbox.ts).
    markMerged(context, index, merge) {
      const pool = poolOf(db);
      if (!pool) throw new Error('markMerged needs a client made by createDb');
      return pgOutboxTransaction(pool, async (client, publish) => {
        await rememberUsersOn(client, context.knownUsers);
        const repositoryId = BigInt(context.repository.id);
        // The issue row locked first (as every pull writer locks it), then, unless merged
        // already (the merge's own push may have reached the push consumer first), the pull,
        // its issue (when open) and the repository's counts: one statement.
        const sql = Prisma.sql`
          WITH locked AS (
            SELECT i.id, i.is_closed, pr.has_merged FROM issue i JOIN pull_request pr ON pr.issue_id = i.id
            WHERE i.repository_id = ${repositoryId} AND i.index = ${BigInt(index)} AND i.is_pull FOR UPDATE OF i
          ), merged AS (
            UPDATE pull_request SET has_merged = true, merged_at = now(), merged_by_id = ${BigInt(merge.mergedById)},
              merge_commit_sha = ${merge.mergeCommitSha}, head_sha = ${merge.headSha}
            WHERE issue_id = (SELECT id FROM locked WHERE NOT has_merged)
          ), closed AS (
            UPDATE issue SET is_closed = true, closed_at = now(), updated_at = now()
            WHERE id = (SELECT id FROM locked WHERE NOT has_merged AND NOT is_closed) RETURNING id
          ), counted AS (
            ${countMove(context.repository.id, { isPull: true, isClosed: false }, { isPull: true, isClosed: true }, Prisma.sql`EXISTS (SELECT 1 FROM closed)`)}
          )
          SELECT l.id, l.has_merged, c.open_issues, c.closed_issues, c.open_pulls, c.closed_pulls, c.counts_version
          FROM locked l LEFT JOIN counted c ON true`;
        const { rows: [row] } = await client.query<{ id: string; has_merged: boolean } & Record<keyof IssueCounts, string | null>>({
          name: 'pull-merge', text: sql.text, values: sql.values,
        });
        if (!row) return undefined;
        const pull = (await readPullOn(client, byId(Number(row.id))))!;
        if (row.has_merged) return pull;
        if (row.counts_version !== null) publish(issueCountsRow(context.repository.id, row as Record<keyof IssueCounts, string>));
        publish(outboxRowOfPullEvent(context, pull, 'closed', { headRepository: await headRepositoryOn(client, pull) }));
        return pull;
      }, options);
    },
  };
}

class DuplicatePull extends Error {}

/** Stores a branch's head (branch_head), as a push moved it. */
export async function rememberBranchHead(db: Client, repositoryId: bigint, name: string, sha: string): Promise<void> {
  await db.$executeRaw`INSERT INTO branch_head (repository_id, name, sha, updated_at) VALUES (${repositoryId}, ${name}, ${sha}, now())
    ON CONFLICT (repository_id, name) DO UPDATE SET sha = EXCLUDED.sha, updated_at = now()`;
}

/** Stores a new pull's base head: replacing the stored one unless another pull is based on that branch too. */
async function rememberBaseHead(tx: Client, repositoryId: bigint, name: string, sha: string, pullIssueId: bigint): Promise<void> {
  await tx.$executeRaw`INSERT INTO branch_head (repository_id, name, sha, updated_at) VALUES (${repositoryId}, ${name}, ${sha}, now())
    ON CONFLICT (repository_id, name) DO UPDATE SET sha = EXCLUDED.sha, updated_at = now()
    WHERE NOT EXISTS (SELECT 1 FROM pull_request WHERE repository_id = ${repositoryId} AND base_branch = ${name} AND issue_id <> ${pullIssueId})`;
}

/** Forgets a deleted branch's head. */
export async function forgetBranchHead(db: Client, repositoryId: bigint, name: string): Promise<void> {
  await db.$executeRaw`DELETE FROM branch_head WHERE repository_id = ${repositoryId} AND name = ${name}`;
}
