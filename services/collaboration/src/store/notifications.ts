// Notification threads in PostgreSQL (table notification). A list is one statement over
// the (user_id, updated_at, id) index joined to the page's issues, and its count a second
// one over the counts kept per repository and status (table notification_count), so a user
// with 10,000 threads pays for one page.
import type { CountsByRepository, NotificationQuery, NotificationStatus, NotificationStore, NotificationThread } from '../domain/notifications.js';
import type { NotifyFacts } from '../domain/notification-recipients.js';
import { Prisma } from './generated/client.js';
import { queryRows, type CollaborationDb, type CollaborationTx } from './db.js';
import { statementKey } from './issue-rows.js';

type Client = CollaborationDb | CollaborationTx;

interface ThreadRow {
  id: bigint; user_id: bigint; repository_id: bigint; status: string; source: string; updated_at: Date;
  index: bigint; title: string; is_closed: boolean; has_merged: boolean | null; latest_comment_id: bigint | null;
}

const SELECT_THREAD = Prisma.sql`
  SELECT n.id, n.user_id, n.repository_id, n.status, n.source, n.updated_at, i.index, i.title, i.is_closed, p.has_merged,
         (SELECT c.id FROM comment c WHERE c.issue_id = n.issue_id AND c.type = 'comment' ORDER BY c.id DESC LIMIT 1) AS latest_comment_id
    FROM notification n JOIN issue i ON i.id = n.issue_id LEFT JOIN pull_request p ON p.issue_id = n.issue_id`;

function toThread(row: ThreadRow): NotificationThread {
  return {
    id: Number(row.id), userId: Number(row.user_id), repositoryId: Number(row.repository_id),
    status: row.status as NotificationStatus, source: row.source === 'pull' ? 'pull' : 'issue', updatedAt: row.updated_at,
    subject: {
      index: Number(row.index), title: row.title, state: row.has_merged ? 'merged' : row.is_closed ? 'closed' : 'open',
      latestCommentId: Number(row.latest_comment_id ?? 0),
    },
  };
}

/** The query's user, repository and statuses, on the columns of `alias` (a thread, or a kept count). */
function ownerConditions(query: NotificationQuery, alias: 'n' | 'c'): Prisma.Sql[] {
  const column = (name: string) => Prisma.raw(`${alias}.${name}`);
  const and = [Prisma.sql`${column('user_id')} = ${BigInt(query.userId)}`];
  if (query.repositoryId) and.push(Prisma.sql`${column('repository_id')} = ${BigInt(query.repositoryId)}`);
  if (query.statuses.length) and.push(Prisma.sql`${column('status')} IN (${Prisma.join(query.statuses)})`);
  return and;
}

function conditionsOf(query: NotificationQuery): Prisma.Sql {
  const and = ownerConditions(query, 'n');
  if (query.subjectTypes.length) and.push(Prisma.sql`n.source IN (${Prisma.join(query.subjectTypes)})`);
  if (query.since) and.push(Prisma.sql`n.updated_at >= ${query.since}`);
  if (query.before) and.push(Prisma.sql`n.updated_at <= ${query.before}`);
  return Prisma.join(and, ' AND ');
}

// The threads a batch of events calls for, in one statement (`f`: one row per event, in
// order). Most events go to everyone who watches the issue or its repository or takes part
// in it and did not opt out; some to one user (an assignee, a reviewer asked). A user is
// never told of their own change.
const WRITE_NOTIFICATIONS_SQL = `
  WITH f AS (
    SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::bigint[])
      WITH ORDINALITY AS f(issue_id, repository_id, source, comment_id, actor_id, recipients, user_id, ord)
  ), r AS (
    SELECT f.ord, f.user_id FROM f WHERE f.recipients = 'user'
    UNION ALL
    SELECT f.ord, w.user_id FROM f CROSS JOIN LATERAL (
             SELECT user_id FROM repo_watch WHERE repository_id = f.repository_id
       UNION SELECT user_id FROM issue_watch WHERE issue_id = f.issue_id AND is_watching
       UNION SELECT poster_id FROM issue WHERE id = f.issue_id
       UNION SELECT user_id FROM issue_assignee WHERE issue_id = f.issue_id
       UNION SELECT user_id FROM issue_mention WHERE issue_id = f.issue_id
       UNION SELECT poster_id FROM comment WHERE issue_id = f.issue_id AND type = 'comment') w
     WHERE f.recipients = 'watchers'
       AND NOT EXISTS (SELECT 1 FROM issue_watch o WHERE o.issue_id = f.issue_id AND o.user_id = w.user_id AND NOT o.is_watching)
  )
  INSERT INTO notification (user_id, repository_id, issue_id, source, status, comment_id, updated_by, created_at, updated_at)
  SELECT DISTINCT ON (r.user_id, i.id) r.user_id, i.repository_id, i.id, f.source, 'unread', f.comment_id, f.actor_id, $8::timestamptz, $8::timestamptz
    FROM r JOIN f ON f.ord = r.ord JOIN issue i ON i.id = f.issue_id
   WHERE r.user_id > 0 AND r.user_id <> f.actor_id
   ORDER BY r.user_id, i.id, r.ord DESC
  ON CONFLICT (user_id, issue_id) DO UPDATE
    SET status = CASE WHEN notification.status = 'pinned' THEN 'pinned' ELSE 'unread' END,
        comment_id = EXCLUDED.comment_id, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`;

/**
 * Creates or refreshes the threads some events call for, in one statement, inside the
 * consumer's transaction (with their processed_event rows). A refreshed thread becomes unread
 * again unless pinned. Where several events touch one user's thread of an issue, it ends as
 * the last of them leaves it, as if they were written one by one (a statement cannot write a
 * row twice). An issue deleted meanwhile gets none (the join finds no issue).
 * @returns how many threads were written.
 */
export async function writeNotifications(tx: Client, facts: NotifyFacts[], now = new Date()): Promise<number> {
  if (!facts.length) return 0;
  const column = <T>(of: (f: NotifyFacts) => T) => facts.map(of);
  return tx.$executeRawUnsafe(WRITE_NOTIFICATIONS_SQL,
    column((f) => String(f.issueId)), column((f) => String(f.repositoryId)), column((f) => f.source), column((f) => String(f.commentId)),
    column((f) => String(f.actorId)), column((f) => f.recipients), column((f) => String(f.userId ?? 0)), now);
}

/** A name to prepare a list statement under, while its text is one of the few a page can have (db.ts queryRows). */
const preparedName = (kind: string, sql: Prisma.Sql, query?: NotificationQuery) =>
  (!query || (query.statuses.length <= 3 && query.subjectTypes.length <= 2) ? `notification-${kind}-${statementKey(sql.text)}` : undefined);

/**
 * How many threads of the query each repository holds. A query by user, repository and
 * status alone (a list's default, /notifications/new) reads the counts the triggers keep
 * (migration 20261130150000): a row per repository and status, however many threads. One
 * with times or subject types counts the threads.
 */
async function countsOf(db: Client, query: NotificationQuery): Promise<CountsByRepository> {
  const kept = !query.since && !query.before && !query.subjectTypes.length;
  const sql = kept ? Prisma.sql`
      SELECT c.repository_id, sum(c.count) AS count FROM notification_count c WHERE ${Prisma.join(ownerConditions(query, 'c'), ' AND ')}
       GROUP BY c.repository_id HAVING sum(c.count) > 0`
    : Prisma.sql`SELECT n.repository_id, count(*) AS count FROM notification n WHERE ${conditionsOf(query)} GROUP BY n.repository_id`;
  const rows = await queryRows<{ repository_id: bigint; count: bigint }>(db, sql, preparedName('counts', sql, query));
  return rows.map((r) => ({ repositoryId: Number(r.repository_id), count: Number(r.count) }));
}

export function notificationStore(db: CollaborationDb): NotificationStore {
  const find = async (id: number) => {
    const [row] = await db.$queryRaw<ThreadRow[]>`${SELECT_THREAD} WHERE n.id = ${BigInt(id)}`;
    return row ? toThread(row) : undefined;
  };
  return {
    async list(query, page) {
      const where = conditionsOf(query);
      // The hot read of GET /notifications: both statements through the pg pool, prepared.
      const sql = Prisma.sql`${SELECT_THREAD} WHERE ${where} ORDER BY n.updated_at DESC, n.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`;
      const [rows, counts] = await Promise.all([queryRows<ThreadRow>(db, sql, preparedName('list', sql, query)), countsOf(db, query)]);
      return { items: rows.map(toThread), byRepository: counts };
    },

    countUnread: (userId) => countsOf(db, { userId, statuses: ['unread'], subjectTypes: [] }),

    find,

    // Marking a thread moves its updated_at, as Gitea saves the row (xorm sets its `updated`
    // column on every update): a thread just marked comes first in the list.
    async setStatus(id, status) {
      await db.$executeRaw`UPDATE notification SET status = ${status}, updated_at = now() WHERE id = ${BigInt(id)}`;
      return find(id);
    },

    async setStatusWhere(query, status) {
      const ids = await db.$queryRaw<Array<{ id: bigint }>>`
        UPDATE notification n SET status = ${status}, updated_at = now() WHERE ${conditionsOf(query)} RETURNING n.id`;
      if (!ids.length) return [];
      const rows = await db.$queryRaw<ThreadRow[]>`${SELECT_THREAD} WHERE n.id IN (${Prisma.join(ids.map((r) => r.id))})
        ORDER BY n.updated_at DESC, n.id DESC`;
      return rows.map(toThread);
    },
  };
}
