// Running stopwatches in PostgreSQL (table `stopwatch`, one row per user and issue). Starting,
// stopping and cancelling each write the row change, the timeline entry (start_tracking,
// stop_tracking with the tracked time it added, cancel_tracking) and the event in one
// transaction; the primary key keeps a second stopwatch on the same issue out even when two
// starts race.
import { DomainError, outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import type { ChangeContext, Issue } from '../domain/issue-store.js';
import type { Stopwatch, StopwatchStore } from '../domain/stopwatches.js';
import type { TrackedTime } from '../domain/tracked-times.js';
import { Prisma } from './generated/client.js';
import type { CollaborationDb, CollaborationTx } from './db.js';
import { readIssue } from './issue-rows.js';
import { insertTrackedTime, publishTimeEvent, recordTimeEntry } from './tracked-times.js';
import { rememberUsers } from './users.js';

/** Removes the user's stopwatch on the issue (locked first); its start, or undefined when none ran. */
async function takeStopwatch(tx: CollaborationTx, userId: number, issueId: number): Promise<Date | undefined> {
  const [row] = await tx.$queryRaw<Array<{ created_at: Date }>>`
    DELETE FROM stopwatch WHERE user_id = ${BigInt(userId)} AND issue_id = ${BigInt(issueId)} RETURNING created_at`;
  return row?.created_at;
}

/** Stops the running stopwatch and tracks what it measured, as Gitea's FinishIssueStopwatch. */
async function finish(tx: CollaborationTx, published: string[], context: ChangeContext, issue: Issue): Promise<TrackedTime | undefined> {
  const started = await takeStopwatch(tx, context.sender.id, issue.id);
  if (!started) return undefined;
  const now = new Date();
  const seconds = Math.max(0, Math.floor((now.getTime() - started.getTime()) / 1000));
  const time = await insertTrackedTime(tx, issue, context.sender, seconds, now, 'stop_tracking');
  await publishTimeEvent(tx, published, context, 'stopwatch_stopped', issue, time);
  return time;
}

export function stopwatchStore(db: CollaborationDb, options: OutboxStoreOptions = {}): StopwatchStore {
  const inTransaction = <R>(work: (tx: CollaborationTx, published: string[]) => Promise<R>) =>
    outboxTransaction(db, (tx: CollaborationTx, published: string[]) => ({ tx, published }), ({ tx, published }) => work(tx, published), options);

  return {
    start(context, issue) {
      return inTransaction(async (tx, published) => {
        const userId = BigInt(context.sender.id);
        const running = await tx.stopwatch.findMany({ where: { user_id: userId }, select: { issue_id: true } });
        if (running.some((s) => Number(s.issue_id) === issue.id)) return false;
        await rememberUsers(tx, context.knownUsers);
        // Gitea: starting a stopwatch stops the user's other one (and tracks its time).
        for (const other of running) {
          const otherIssue = await readIssue(tx, Prisma.sql`i.id = ${other.issue_id}`);
          if (otherIssue) await finish(tx, published, context, otherIssue);
        }
        const inserted = await tx.$executeRaw`
          INSERT INTO stopwatch (user_id, issue_id, created_at) VALUES (${userId}, ${BigInt(issue.id)}, now()) ON CONFLICT DO NOTHING`;
        // A concurrent start won: roll this one back whole.
        if (!inserted) throw new DomainError('conflict', 'cannot start a stopwatch again if it already exists', 'stopwatch_running');
        await recordTimeEntry(tx, issue, context.sender.id, 'start_tracking');
        await publishTimeEvent(tx, published, context, 'stopwatch_started', issue);
        return true;
      });
    },

    stop(context, issue) {
      return inTransaction(async (tx, published) => {
        await rememberUsers(tx, context.knownUsers);
        return finish(tx, published, context, issue);
      });
    },

    cancel(context, issue) {
      return inTransaction(async (tx, published) => {
        if (!(await takeStopwatch(tx, context.sender.id, issue.id))) return false;
        await rememberUsers(tx, context.knownUsers);
        await recordTimeEntry(tx, issue, context.sender.id, 'cancel_tracking');
        await publishTimeEvent(tx, published, context, 'stopwatch_cancelled', issue);
        return true;
      });
    },

    async listForUser(userId, page) {
      const rows = await db.$queryRaw<Array<{ issue_id: bigint; created_at: Date; index: bigint; title: string; repository_id: bigint; total: bigint }>>`
        SELECT s.issue_id, s.created_at, i.index, i.title, i.repository_id, count(*) OVER () AS total
          FROM stopwatch s JOIN issue i ON i.id = s.issue_id
         WHERE s.user_id = ${BigInt(userId)} ORDER BY s.created_at, s.issue_id LIMIT ${page.limit} OFFSET ${page.offset}`;
      const items: Stopwatch[] = rows.map((r) => ({
        userId, issueId: Number(r.issue_id), issueIndex: Number(r.index), issueTitle: r.title, repositoryId: Number(r.repository_id), createdAt: r.created_at,
      }));
      let total = Number(rows[0]?.total ?? 0);
      if (!rows.length && page.offset > 0) total = await db.stopwatch.count({ where: { user_id: BigInt(userId) } });
      return { items, total };
    },
  };
}
