// Reading issues: one SQL statement returns a page of issues with their poster, labels,
// assignees and milestone (read models joined in, notes/performance.md rule 4), and the
// total the list reports: from the per-repository counters when only state and type
// filter, else counted by a window over the filtered rows.
import { createHash } from 'node:crypto';
import type { PgTransactionClient } from '@anvil/kit';
import type { Issue, IssueQuery, Label, Milestone } from '../domain/issue-store.js';
import type { ScopedRepository } from '../domain/scope.js';
import type { UserProfile } from '../domain/users.js';
import { Prisma } from './generated/client.js';
import { queryRows, type CollaborationDb, type CollaborationTx } from './db.js';

type Client = CollaborationDb | CollaborationTx;

interface LabelJson { id: number; name: string; color: string; description: string; exclusive: boolean; archived: boolean; repository_id: number | null; org_id: number | null }
interface MilestoneJson { id: number; name: string; description: string; is_closed: boolean; open_issues: number; closed_issues: number; due_date: string | null; closed_at: string | null; created_at: string; updated_at: string }

export interface IssueRow {
  id: bigint; repository_id: bigint; index: bigint; poster_id: bigint; title: string; body: string;
  is_closed: boolean; is_pull: boolean; is_locked: boolean; due_date: Date | null; closed_at: Date | null;
  pin_order: number; ref: string; content_version: number; comments: number; created_at: Date; updated_at: Date;
  poster: UserProfile | null; labels: LabelJson[]; assignees: UserProfile[]; milestone: MilestoneJson | null; total?: bigint | null;
  pull_meta: { has_merged: boolean; merged_at: string | null } | null;
}

export const SELECT_ISSUE = Prisma.sql`
  SELECT i.id, i.repository_id, i.index, i.poster_id, i.title, i.body, i.is_closed, i.is_pull, i.is_locked,
    i.due_date, i.closed_at, i.pin_order, i.ref, i.content_version, i.comments, i.created_at, i.updated_at,
    p.profile AS poster,
    COALESCE((SELECT json_agg(json_build_object('id', l.id, 'name', l.name, 'color', l.color, 'description', l.description,
        'exclusive', l.exclusive, 'archived', l.archived_at IS NOT NULL, 'repository_id', l.repository_id, 'org_id', l.org_id) ORDER BY l.name, l.id)
      FROM issue_label il JOIN label l ON l.id = il.label_id WHERE il.issue_id = i.id), '[]'::json) AS labels,
    COALESCE((SELECT json_agg(u.profile ORDER BY u.id) FROM issue_assignee a JOIN "user" u ON u.id = a.user_id WHERE a.issue_id = i.id), '[]'::json) AS assignees,
    (SELECT row_to_json(m) FROM milestone m WHERE m.id = i.milestone_id) AS milestone,
    CASE WHEN i.is_pull THEN (SELECT json_build_object('has_merged', pr.has_merged, 'merged_at', pr.merged_at)
      FROM pull_request pr WHERE pr.issue_id = i.id) END AS pull_meta`;

const dateOf = (value: string | null | undefined) => (value ? new Date(value) : undefined);

export const toLabel = (l: LabelJson): Label => ({
  id: Number(l.id), name: l.name, color: l.color, description: l.description, exclusive: l.exclusive, isArchived: l.archived,
  repositoryId: Number(l.repository_id ?? 0), orgId: Number(l.org_id ?? 0),
});

export const toMilestone = (m: MilestoneJson): Milestone => ({
  id: Number(m.id), title: m.name, description: m.description, isClosed: m.is_closed, openIssues: Number(m.open_issues), closedIssues: Number(m.closed_issues),
  createdAt: new Date(m.created_at), updatedAt: new Date(m.updated_at), closedAt: dateOf(m.closed_at), dueDate: dateOf(m.due_date),
});

const toUser = (profile: UserProfile): UserProfile => ({ ...profile, id: Number(profile.id) });

export function toIssue(row: IssueRow): Issue {
  return {
    id: Number(row.id), repositoryId: Number(row.repository_id), index: Number(row.index), posterId: Number(row.poster_id),
    poster: row.poster ? toUser(row.poster) : undefined, title: row.title, body: row.body,
    isClosed: row.is_closed, isPull: row.is_pull, isLocked: row.is_locked,
    labels: row.labels.map(toLabel), milestone: row.milestone ? toMilestone(row.milestone) : undefined, assignees: row.assignees.map(toUser),
    comments: row.comments, createdAt: row.created_at, updatedAt: row.updated_at, closedAt: row.closed_at ?? undefined, dueDate: row.due_date ?? undefined,
    pinOrder: row.pin_order, ref: row.ref, contentVersion: row.content_version,
    pull: row.pull_meta ? { hasMerged: row.pull_meta.has_merged, mergedAt: dateOf(row.pull_meta.merged_at) } : undefined,
  };
}

export async function readIssue(db: Client, where: Prisma.Sql): Promise<Issue | undefined> {
  const [row] = await db.$queryRaw<IssueRow[]>`${SELECT_ISSUE} FROM issue i LEFT JOIN "user" p ON p.id = i.poster_id WHERE ${where}`;
  return row ? toIssue(row) : undefined;
}

/** readIssue on a pg transaction's client (pgOutboxTransaction), prepared: give it a condition of fixed text. */
export async function readIssueOn(client: PgTransactionClient, where: Prisma.Sql): Promise<Issue | undefined> {
  const sql = Prisma.sql`${SELECT_ISSUE} FROM issue i LEFT JOIN "user" p ON p.id = i.poster_id WHERE ${where}`;
  const { rows: [row] } = await client.query<IssueRow>({ name: `issue-${statementKey(sql.text)}`, text: sql.text, values: sql.values });
  return row ? toIssue(row) : undefined;
}

/** Issues matching `where` in `order`, each with what presenting it needs: one statement. */
export async function readIssues(db: Client, where: Prisma.Sql, order: Prisma.Sql): Promise<Issue[]> {
  const rows = await db.$queryRaw<IssueRow[]>`${SELECT_ISSUE} FROM issue i LEFT JOIN "user" p ON p.id = i.poster_id WHERE ${where} ORDER BY ${order}`;
  return rows.map(toIssue);
}

/** A short stable name for a statement's text (prepared statements are named per text). */
export const statementKey = (text: string) => createHash('sha1').update(text).digest('base64url').slice(0, 16);

export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Label tokens (names or ids) as SQL matching a label usable in the repository. */
function labelMatch(repository: ScopedRepository, token: string): Prisma.Sql {
  const usable = repository.ownerIsOrg
    ? Prisma.sql`(l.repository_id = ${BigInt(repository.id)} OR l.org_id = ${BigInt(repository.ownerId)})`
    : Prisma.sql`l.repository_id = ${BigInt(repository.id)}`;
  const byName = Prisma.sql`lower(l.name) = ${token.toLowerCase()}`;
  const named = /^\d{1,18}$/.test(token) ? Prisma.sql`(l.id = ${BigInt(token)} OR ${byName})` : byName;
  return Prisma.sql`${usable} AND ${named}`;
}

export function filtersOf(repository: ScopedRepository, query: IssueQuery): Prisma.Sql[] {
  const where: Prisma.Sql[] = [Prisma.sql`i.repository_id = ${BigInt(repository.id)}`];
  if (query.state !== 'all') where.push(Prisma.sql`i.is_closed = ${query.state === 'closed'}`);
  if (query.type !== 'all') where.push(Prisma.sql`i.is_pull = ${query.type === 'pulls'}`);
  // Every named label that exists must be on the issue; names that match nothing are dropped (Gitea).
  for (const token of query.labels) {
    const match = labelMatch(repository, token);
    where.push(Prisma.sql`(NOT EXISTS (SELECT 1 FROM label l WHERE ${match})
      OR EXISTS (SELECT 1 FROM issue_label il JOIN label l ON l.id = il.label_id WHERE il.issue_id = i.id AND ${match}))`);
  }
  if (query.milestones.length) {
    const ids = query.milestones.filter((m) => /^\d{1,18}$/.test(m)).map((m) => BigInt(m));
    const names = query.milestones.map((m) => m.toLowerCase());
    const match = Prisma.sql`m.repository_id = ${BigInt(repository.id)} AND (m.id = ANY(${ids}::bigint[]) OR lower(m.name) = ANY(${names}::text[]))`;
    where.push(Prisma.sql`(NOT EXISTS (SELECT 1 FROM milestone m WHERE ${match}) OR i.milestone_id IN (SELECT m.id FROM milestone m WHERE ${match}))`);
  }
  where.push(...textTimeAndPeopleFilters(query));
  return where;
}

/** The filters a repository's issue list and the search across repositories share. */
export function textTimeAndPeopleFilters(query: IssueQuery): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (query.q) {
    const pattern = `%${escapeLike(query.q)}%`;
    where.push(Prisma.sql`(i.title ILIKE ${pattern} OR i.body ILIKE ${pattern})`);
  }
  if (query.since) where.push(Prisma.sql`i.updated_at >= ${query.since}`);
  if (query.before) where.push(Prisma.sql`i.updated_at <= ${query.before}`);
  if (query.posterId !== undefined) where.push(Prisma.sql`i.poster_id = ${BigInt(query.posterId)}`);
  if (query.assigneeId !== undefined) where.push(Prisma.sql`EXISTS (SELECT 1 FROM issue_assignee a WHERE a.issue_id = i.id AND a.user_id = ${BigInt(query.assigneeId)})`);
  if (query.mentionedId !== undefined) where.push(Prisma.sql`EXISTS (SELECT 1 FROM issue_mention mn WHERE mn.issue_id = i.id AND mn.user_id = ${BigInt(query.mentionedId)})`);
  return where;
}

/** The counters of issue_index that answer an unfiltered count, or undefined when other filters apply. */
function counterTotal(repository: ScopedRepository, query: IssueQuery): Prisma.Sql | undefined {
  const filtered = query.labels.length || query.milestones.length || query.q || query.since || query.before
    || query.posterId !== undefined || query.assigneeId !== undefined || query.mentionedId !== undefined;
  if (filtered) return undefined;
  const columns = (['issues', 'pulls'] as const).filter((t) => query.type === 'all' || query.type === t)
    .flatMap((t) => (['open', 'closed'] as const).filter((s) => query.state === 'all' || query.state === s).map((s) => `${s}_${t}`));
  return Prisma.sql`(SELECT ${Prisma.raw(columns.join(' + '))} FROM issue_index WHERE repository_id = ${BigInt(repository.id)})`;
}

/**
 * A page of issues, newest first (a stable order: pages never shift), and the total. The
 * hottest read of the service: one `pg` statement, prepared when its text is one of the few
 * without per-value label or milestone clauses (db.ts queryRows).
 */
export async function listIssueRows(db: Client, repository: ScopedRepository, query: IssueQuery): Promise<{ items: Issue[]; total: number }> {
  const where = Prisma.join(filtersOf(repository, query), ' AND ');
  const total = counterTotal(repository, query) ?? Prisma.sql`count(*) OVER ()`;
  const sql = Prisma.sql`${SELECT_ISSUE}, ${total} AS total
    FROM issue i LEFT JOIN "user" p ON p.id = i.poster_id
    WHERE ${where} ORDER BY i.id DESC LIMIT ${query.limit} OFFSET ${query.offset}`;
  const prepared = !query.labels.length && !query.milestones.length ? `issue-list-${statementKey(sql.text)}` : undefined;
  const rows = await queryRows<IssueRow>(db, sql, prepared);
  if (rows.length) return { items: rows.map(toIssue), total: Number(rows[0].total ?? 0) };
  // A page past the end has no row to carry the total: count once more (rare).
  if (query.offset === 0) return { items: [], total: 0 };
  const [{ count }] = await db.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) AS count FROM issue i WHERE ${where}`;
  return { items: [], total: Number(count) };
}
