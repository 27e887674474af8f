// Comments in PostgreSQL (table `comment`), read with their posters from the user read model
// in one statement. A new or removed comment is counted on its issue in the same
// transaction as its event.
import { outboxTransaction, pgOutboxTransaction, type OutboxStoreOptions, type PgTransactionClient } from '@anvil/kit';
import type { Comment, CommentStore, CommentWindow } from '../domain/comments.js';
import type { ChangeContext } from '../domain/issue-store.js';
import type { UserProfile } from '../domain/users.js';
import { outboxRowOfCommentEvent } from '../events/issue-events.js';
import { Prisma } from './generated/client.js';
import { poolOf, type CollaborationDb, type CollaborationTx } from './db.js';
import { readIssue, readIssueOn } from './issue-rows.js';
import { findPullIn, readPullOn } from './pulls.js';
import { profileOf, profileOn, rememberUsersOn } from './users.js';

type Client = CollaborationDb | CollaborationTx;

interface CommentRow {
  id: bigint; issue_id: bigint; issue_index: bigint; is_pull: boolean; repository_id: bigint; poster_id: bigint;
  type: string; body: string; data: Record<string, unknown> | null; created_at: Date; updated_at: Date; poster: UserProfile | null; total?: bigint;
}

const toComment = (row: CommentRow): Comment => ({
  id: Number(row.id), issueId: Number(row.issue_id), issueIndex: Number(row.issue_index), isPull: row.is_pull, repositoryId: Number(row.repository_id),
  posterId: Number(row.poster_id), poster: row.poster ? { ...row.poster, id: Number(row.poster.id) } : undefined,
  type: row.type, body: row.body, data: row.data ?? undefined, createdAt: row.created_at, updatedAt: row.updated_at,
});

const SELECT_COMMENT = Prisma.sql`
  SELECT c.id, c.issue_id, i.index AS issue_index, i.is_pull, c.repository_id, c.poster_id, c.type, c.body, c.data, c.created_at, c.updated_at, u.profile AS poster`;
const FROM_COMMENT = Prisma.sql`FROM comment c JOIN issue i ON i.id = c.issue_id LEFT JOIN "user" u ON u.id = c.poster_id`;

function windowOf(window: CommentWindow): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (window.since) where.push(Prisma.sql`c.updated_at >= ${window.since}`);
  if (window.before) where.push(Prisma.sql`c.updated_at <= ${window.before}`);
  return where;
}

async function readComment(db: Client, id: number): Promise<Comment | undefined> {
  const [row] = await db.$queryRaw<CommentRow[]>`${SELECT_COMMENT} ${FROM_COMMENT} WHERE c.id = ${BigInt(id)}`;
  return row ? toComment(row) : undefined;
}

/** readComment on a pg transaction's client (pgOutboxTransaction); int8 columns come as strings, which toComment converts. */
async function readCommentOn(client: PgTransactionClient, id: number): Promise<Comment | undefined> {
  const sql = Prisma.sql`${SELECT_COMMENT} ${FROM_COMMENT} WHERE c.id = ${BigInt(id)}`;
  const { rows: [row] } = await client.query<CommentRow>({ name: 'comment-by-id', text: sql.text, values: sql.values });
  return row ? toComment(row) : undefined;
}

export function commentStore(db: CollaborationDb, options: OutboxStoreOptions = {}): CommentStore {
  /** Runs a change and writes its event (with the issue as it stands after it) in one transaction. */
  const inTransaction = <R>(work: (tx: CollaborationTx, publish: (context: ChangeContext, action: 'created' | 'edited' | 'deleted', comment: Comment, bodyFrom?: string) => Promise<void>) => Promise<R>) =>
    outboxTransaction(db, (tx: CollaborationTx, published: string[]) => ({
      tx,
      async publish(context: ChangeContext, action: 'created' | 'edited' | 'deleted', comment: Comment, bodyFrom?: string) {
        const issue = (await readIssue(tx, Prisma.sql`i.id = ${BigInt(comment.issueId)}`))!;
        // The sender as identity described them, for the webhook's `sender`.
        const sender = await profileOf(tx, context.sender);
        const pull = issue.isPull ? await findPullIn(tx, Prisma.sql`i.id = ${BigInt(issue.id)}`) : undefined;
        const row = outboxRowOfCommentEvent({ ...context, sender }, action, comment, issue, bodyFrom, pull);
        await tx.outboxEvent.create({ data: row });
        published.push(row.id);
      },
    }), ({ tx, publish }) => work(tx, publish), options);

  return {
    async listForIssue(issueId, window) {
      const where = Prisma.join([Prisma.sql`c.issue_id = ${BigInt(issueId)}`, Prisma.sql`c.type = 'comment'`, ...windowOf(window)], ' AND ');
      const rows = await db.$queryRaw<CommentRow[]>`${SELECT_COMMENT} ${FROM_COMMENT} WHERE ${where} ORDER BY c.id`;
      return rows.map(toComment);
    },

    async timeline(issueId, window) {
      const where = Prisma.join([Prisma.sql`c.issue_id = ${BigInt(issueId)}`, ...windowOf(window)], ' AND ');
      const rows = await db.$queryRaw<CommentRow[]>`${SELECT_COMMENT}, count(*) OVER () AS total ${FROM_COMMENT}
        WHERE ${where} ORDER BY c.id LIMIT ${window.limit} OFFSET ${window.offset}`;
      return { items: rows.map(toComment), total: Number(rows[0]?.total ?? 0) };
    },

    async listForRepository(repositoryId, window) {
      const where = Prisma.join([Prisma.sql`c.repository_id = ${BigInt(repositoryId)}`, Prisma.sql`c.type = 'comment'`, ...windowOf(window)], ' AND ');
      const rows = await db.$queryRaw<CommentRow[]>`${SELECT_COMMENT}, count(*) OVER () AS total ${FROM_COMMENT}
        WHERE ${where} ORDER BY c.id LIMIT ${window.limit} OFFSET ${window.offset}`;
      if (rows.length || window.offset === 0) return { items: rows.map(toComment), total: Number(rows[0]?.total ?? 0) };
      const [{ count }] = await db.$queryRaw<Array<{ count: bigint }>>`SELECT count(*) AS count FROM comment c WHERE ${where}`;
      return { items: [], total: Number(count) };
    },

    async find(repositoryId, id) {
      const comment = await readComment(db, id);
      return comment && comment.repositoryId === repositoryId ? comment : undefined;
    },

    // On the pg pool rather than in Prisma's interactive transaction: a new comment is this
    // service's most frequent write, and each statement through Prisma costs about 1 ms of
    // CPU here against 0.1–0.2 ms prepared on pg (kit's pg-outbox.ts).
    create(context, issueId, body, mentionedIds) {
      const pool = poolOf(db);
      if (!pool) throw new Error('commentStore needs a client made by createDb');
      return pgOutboxTransaction(pool, async (client, publish) => {
        await rememberUsersOn(client, context.knownUsers);
        const now = new Date();
        const issue = BigInt(issueId);
        // The comment, its issue's count and time, and the users it mentions: one statement.
        const sql = Prisma.sql`
          WITH created AS (
            INSERT INTO comment (issue_id, repository_id, poster_id, body, created_at, updated_at)
            VALUES (${issue}, ${BigInt(context.repository.id)}, ${BigInt(context.sender.id)}, ${body}, ${now}, ${now}) RETURNING id
          ), counted AS (
            UPDATE issue SET comments = comments + 1, updated_at = ${now} WHERE id = ${issue}
          ), mentioned AS (
            INSERT INTO issue_mention (issue_id, user_id) SELECT ${issue}, unnest(${mentionedIds.map(BigInt)}::bigint[]) ON CONFLICT DO NOTHING
          )
          SELECT id FROM created`;
        const { rows: [row] } = await client.query<{ id: string }>({ name: 'comment-create', text: sql.text, values: sql.values });
        const comment = (await readCommentOn(client, Number(row.id)))!;
        // The event carries the issue as it stands after the comment, and the sender as
        // identity described them (the webhook's `sender`), as inTransaction's publish does
        // for edits and removals.
        const after = (await readIssueOn(client, Prisma.sql`i.id = ${issue}`))!;
        const sender = await profileOn(client, context.sender);
        const pull = after.isPull ? await readPullOn(client, Prisma.sql`i.id = ${issue}`) : undefined;
        publish(outboxRowOfCommentEvent({ ...context, sender }, 'created', comment, after, undefined, pull));
        return comment;
      }, options);
    },

    edit(context, id, body) {
      return inTransaction(async (tx, publish) => {
        const before = await readComment(tx, id);
        if (!before) return undefined;
        if (before.body === body) return before;
        await tx.comment.update({ where: { id: BigInt(id) }, data: { body, updated_at: new Date() } });
        const after = (await readComment(tx, id))!;
        await publish(context, 'edited', after, before.body);
        return after;
      });
    },

    remove(context, id) {
      return inTransaction(async (tx, publish) => {
        const comment = await readComment(tx, id);
        if (!comment) return false;
        await tx.comment.delete({ where: { id: BigInt(id) } });
        await tx.reaction.deleteMany({ where: { issue_id: BigInt(comment.issueId), comment_id: BigInt(id) } });
        await tx.issue.update({ where: { id: BigInt(comment.issueId) }, data: { comments: { decrement: 1 } } });
        await publish(context, 'deleted', comment);
        return true;
      });
    },
  };
}
