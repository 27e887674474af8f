// Tracked times in PostgreSQL (table `tracked_time`). A page is read in two statements: the
// times with their users (read model), then their issues. Each change writes, in one
// transaction, the rows, the timeline entry (Gitea's comment types add_time_manual,
// stop_tracking, delete_time_manual, whose body holds "|<seconds>" as Gitea 1.21+ stores
// it) and the event.
import { outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import type { ChangeContext, Issue } from '../domain/issue-store.js';
import type { TrackedTime, TrackedTimeQuery, TrackedTimeStore } from '../domain/tracked-times.js';
import type { UserProfile } from '../domain/users.js';
import { outboxRowOfTrackedTimeEvent, type TrackedTimeAction } from '../events/tracked-time-events.js';
import { Prisma } from './generated/client.js';
import type { CollaborationDb, CollaborationTx } from './db.js';
import { SELECT_ISSUE, toIssue, type IssueRow } from './issue-rows.js';
import { rememberUsers } from './users.js';

type Client = CollaborationDb | CollaborationTx;

interface TrackedTimeRow {
  id: bigint; issue_id: bigint; repository_id: bigint; user_id: bigint; time: bigint; created_at: Date; deleted: boolean;
  user: UserProfile | null; total?: bigint;
}

const toTrackedTime = (row: TrackedTimeRow): TrackedTime => ({
  id: Number(row.id), issueId: Number(row.issue_id), repositoryId: Number(row.repository_id), userId: Number(row.user_id),
  user: row.user ? { ...row.user, id: Number(row.user.id) } : undefined, time: Number(row.time), createdAt: row.created_at, deleted: row.deleted,
});

/** An issue row as row_to_json gives it: timestamps as text. */
type IssueJson = Omit<IssueRow, 'created_at' | 'updated_at' | 'due_date' | 'closed_at'> & Record<'created_at' | 'updated_at' | 'due_date' | 'closed_at', string | null>;

const issueOfJson = (row: IssueJson) => toIssue({
  ...row, created_at: new Date(row.created_at!), updated_at: new Date(row.updated_at!),
  due_date: row.due_date ? new Date(row.due_date) : null, closed_at: row.closed_at ? new Date(row.closed_at) : null,
} as IssueRow);

const SELECT_TIME = Prisma.sql`
  SELECT t.id, t.issue_id, t.repository_id, t.user_id, t.time, t.created_at, t.deleted, u.profile AS "user"
    FROM tracked_time t LEFT JOIN "user" u ON u.id = t.user_id`;

async function readTrackedTime(db: Client, id: number): Promise<TrackedTime | undefined> {
  const [row] = await db.$queryRaw<TrackedTimeRow[]>`${SELECT_TIME} WHERE t.id = ${BigInt(id)}`;
  return row ? toTrackedTime(row) : undefined;
}

/** A timeline entry of a time-tracking change, by `posterId`. */
export async function recordTimeEntry(tx: CollaborationTx, issue: Issue, posterId: number, type: string, seconds?: number, time?: TrackedTime): Promise<void> {
  const now = new Date();
  await tx.comment.create({
    data: {
      issue_id: BigInt(issue.id), repository_id: BigInt(issue.repositoryId), poster_id: BigInt(posterId), type,
      body: seconds === undefined ? '' : `|${seconds}`,
      data: time ? { tracked_time: { id: time.id, user_id: time.userId, time: time.time, created: time.createdAt.toISOString() } } : undefined,
      created_at: now, updated_at: now,
    },
  });
}

/** Stores a tracked time of `user` on the issue with its timeline entry of `entryType`. */
export async function insertTrackedTime(tx: CollaborationTx, issue: Issue, user: UserProfile, seconds: number, created: Date, entryType: string): Promise<TrackedTime> {
  const row = await tx.trackedTime.create({
    data: { issue_id: BigInt(issue.id), repository_id: BigInt(issue.repositoryId), user_id: BigInt(user.id), time: BigInt(seconds), created_at: created },
  });
  const time: TrackedTime = { ...(await readTrackedTime(tx, Number(row.id)))!, issue };
  await recordTimeEntry(tx, issue, user.id, entryType, seconds, time);
  return time;
}

/** Writes the event of a time-tracking change in its transaction. */
export async function publishTimeEvent(tx: CollaborationTx, published: string[], context: ChangeContext, action: TrackedTimeAction, issue: Issue, time?: TrackedTime): Promise<void> {
  const row = outboxRowOfTrackedTimeEvent(context, action, issue, time);
  await tx.outboxEvent.create({ data: row });
  published.push(row.id);
}

function whereOf(query: TrackedTimeQuery): Prisma.Sql {
  const where: Prisma.Sql[] = [Prisma.sql`NOT t.deleted`];
  if (query.repositoryId !== undefined) where.push(Prisma.sql`t.repository_id = ${BigInt(query.repositoryId)}`);
  if (query.issueId !== undefined) where.push(Prisma.sql`t.issue_id = ${BigInt(query.issueId)}`);
  if (query.userId !== undefined) where.push(Prisma.sql`t.user_id = ${BigInt(query.userId)}`);
  if (query.since) where.push(Prisma.sql`t.created_at >= ${query.since}`);
  if (query.before) where.push(Prisma.sql`t.created_at <= ${query.before}`);
  return Prisma.join(where, ' AND ');
}

export function trackedTimeStore(db: CollaborationDb, options: OutboxStoreOptions = {}): TrackedTimeStore {
  const inTransaction = <R>(work: (tx: CollaborationTx, published: string[]) => Promise<R>) =>
    outboxTransaction(db, (tx: CollaborationTx, published: string[]) => ({ tx, published }), ({ tx, published }) => work(tx, published), options);

  return {
    async list(query) {
      const where = whereOf(query);
      // One statement: each time with its user and its issue (as issue-rows.ts reads one).
      const rows = await db.$queryRaw<Array<TrackedTimeRow & { issue: IssueJson }>>`
        SELECT t.id, t.issue_id, t.repository_id, t.user_id, t.time, t.created_at, t.deleted, u.profile AS "user",
               row_to_json(iss) AS issue, count(*) OVER () AS total
          FROM tracked_time t LEFT JOIN "user" u ON u.id = t.user_id
          JOIN LATERAL (${SELECT_ISSUE} FROM issue i LEFT JOIN "user" p ON p.id = i.poster_id WHERE i.id = t.issue_id) iss ON true
         WHERE ${where} ORDER BY t.id LIMIT ${query.limit} OFFSET ${query.offset}`;
      let total = Number(rows[0]?.total ?? 0);
      if (!rows.length && query.offset > 0) {
        const [{ count }] = await db.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) AS count FROM tracked_time t WHERE ${where}`;
        total = Number(count);
      }
      return { items: rows.map((r) => ({ ...toTrackedTime(r), issue: issueOfJson(r.issue) })), total };
    },

    find(id) {
      return readTrackedTime(db, id);
    },

    add(context, issue, user, seconds, created) {
      return inTransaction(async (tx, published) => {
        await rememberUsers(tx, [...context.knownUsers, user]);
        const time = await insertTrackedTime(tx, issue, user, seconds, created, 'add_time_manual');
        await publishTimeEvent(tx, published, context, 'added', issue, time);
        return time;
      });
    },

    reset(context, issue, userId) {
      return inTransaction(async (tx, published) => {
        // Locks the user's entries so two resets cannot both count them.
        const rows = await tx.$queryRaw<Array<{ time: bigint }>>`
          SELECT time FROM tracked_time WHERE issue_id = ${BigInt(issue.id)} AND user_id = ${BigInt(userId)} AND NOT deleted FOR UPDATE`;
        if (!rows.length) return undefined;
        const removed = rows.reduce((sum, r) => sum + Number(r.time), 0);
        await tx.trackedTime.updateMany({ where: { issue_id: BigInt(issue.id), user_id: BigInt(userId), deleted: false }, data: { deleted: true } });
        await rememberUsers(tx, context.knownUsers);
        await recordTimeEntry(tx, issue, userId, 'delete_time_manual', removed);
        await publishTimeEvent(tx, published, context, 'reset', issue, {
          id: 0, issueId: issue.id, repositoryId: issue.repositoryId, userId, user: context.sender, time: removed, createdAt: new Date(), deleted: true,
        });
        return removed;
      });
    },

    remove(context, issue, time) {
      return inTransaction(async (tx, published) => {
        const { count } = await tx.trackedTime.updateMany({ where: { id: BigInt(time.id), deleted: false }, data: { deleted: true } });
        if (!count) return false;
        await rememberUsers(tx, context.knownUsers);
        // Gitea records the deletion as done by the time's author.
        await recordTimeEntry(tx, issue, time.userId, 'delete_time_manual', time.time);
        await publishTimeEvent(tx, published, context, 'deleted', issue, { ...time, deleted: true });
        return true;
      });
    },
  };
}
