// Notification threads in PostgreSQL (table notification). A list is one statement over
// the (user_id, updated_at, id) index joined to the page's issues, and its count a second
// one over the notification rows alone, so a user with 10,000 threads pays for one page.
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

function conditionsOf(query: NotificationQuery): Prisma.Sql {
  const and = [Prisma.sql`n.user_id = ${BigInt(query.userId)}`];
  if (query.repositoryId) and.push(Prisma.sql`n.repository_id = ${BigInt(query.repositoryId)}`);
  if (query.statuses.length) and.push(Prisma.sql`n.status IN (${Prisma.join(query.statuses)})`);
  if (query.subjectTypes.length) and.push(Prisma.sql`n.source IN (${Prisma.join(query.subjectTypes)})`);
  if (query.since) and.push(Prisma.sql`n.updated_at >= ${query.since}`);
  if (query.before) and.push(Prisma.sql`n.updated_at <= ${query.before}`);
  return Prisma.join(and, ' AND ');
}

/** Everyone who watches the issue or its repository, or takes part in it, and did not opt out. */
const watchersOf = (issueId: bigint, repositoryId: bigint) => Prisma.sql`
  SELECT user_id FROM repo_watch WHERE repository_id = ${repositoryId}
  UNION SELECT user_id FROM issue_watch WHERE issue_id = ${issueId} AND is_watching
  UNION SELECT poster_id FROM issue WHERE id = ${issueId}
  UNION SELECT user_id FROM issue_assignee WHERE issue_id = ${issueId}
  UNION SELECT user_id FROM issue_mention WHERE issue_id = ${issueId}
  UNION SELECT poster_id FROM comment WHERE issue_id = ${issueId} AND type = 'comment'`;

function recipientsOf(facts: NotifyFacts, issueId: bigint, repositoryId: bigint): Prisma.Sql {
  if (facts.recipients === 'assignee') return Prisma.sql`SELECT ${BigInt(facts.assigneeId ?? 0)}::bigint AS user_id`;
  if (facts.recipients === 'requested_reviewers') {
    return Prisma.sql`SELECT reviewer_id AS user_id FROM pull_review WHERE issue_id = ${issueId} AND state = 'REQUEST_REVIEW' AND NOT dismissed`;
  }
  return Prisma.sql`SELECT r.user_id FROM (${watchersOf(issueId, repositoryId)}) r
    WHERE NOT EXISTS (SELECT 1 FROM issue_watch w WHERE w.issue_id = ${issueId} AND w.user_id = r.user_id AND NOT w.is_watching)`;
}

/**
 * Creates or refreshes the threads one event calls for, in one statement, inside the
 * consumer's transaction (with its processed_event row). A refreshed thread becomes unread
 * again unless pinned. An issue deleted meanwhile gets none (the join finds no issue).
 * @returns how many threads were written.
 */
export async function writeNotifications(tx: Client, facts: NotifyFacts, now = new Date()): Promise<number> {
  const issueId = BigInt(facts.issueId);
  const repositoryId = BigInt(facts.repositoryId);
  return tx.$executeRaw`
    INSERT INTO notification (user_id, repository_id, issue_id, source, status, comment_id, updated_by, created_at, updated_at)
    SELECT DISTINCT r.user_id, i.repository_id, i.id, ${facts.source}::text, 'unread', ${BigInt(facts.commentId)}::bigint,
           ${BigInt(facts.actorId)}::bigint, ${now}::timestamptz, ${now}::timestamptz
      FROM (${recipientsOf(facts, issueId, repositoryId)}) r JOIN issue i ON i.id = ${issueId}::bigint
     WHERE r.user_id > 0 AND r.user_id <> ${BigInt(facts.actorId)}::bigint
    ON CONFLICT (user_id, issue_id) DO UPDATE
      SET status = CASE WHEN notification.status = 'pinned' THEN 'pinned' ELSE 'unread' END,
          comment_id = EXCLUDED.comment_id, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`;
}

/** A name to prepare a list statement under, while its text is one of the few a page can have (db.ts queryRows). */
const preparedName = (kind: string, sql: Prisma.Sql, query?: NotificationQuery) =>
  (!query || (query.statuses.length <= 3 && query.subjectTypes.length <= 2) ? `notification-${kind}-${statementKey(sql.text)}` : undefined);

async function countsOf(db: Client, where: Prisma.Sql, query?: NotificationQuery): Promise<CountsByRepository> {
  const sql = Prisma.sql`SELECT n.repository_id, count(*) AS count FROM notification n WHERE ${where} GROUP BY n.repository_id`;
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
      const [rows, counts] = await Promise.all([queryRows<ThreadRow>(db, sql, preparedName('list', sql, query)), countsOf(db, where, query)]);
      return { items: rows.map(toThread), byRepository: counts };
    },

    countUnread: (userId) => countsOf(db, Prisma.sql`n.user_id = ${BigInt(userId)} AND n.status = 'unread'`),

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
