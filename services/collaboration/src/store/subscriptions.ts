// Issue subscriptions in PostgreSQL: explicit choices in `issue_watch`; participants (poster,
// assignees, mentioned users, commenters) watch unless they chose not to. One statement each.
import type { SubscriptionStore } from '../domain/subscriptions.js';
import type { UserProfile } from '../domain/users.js';
import { Prisma } from './generated/client.js';
import type { CollaborationDb } from './db.js';

/** The ids of an issue's participants. */
const participants = (issueId: bigint) => Prisma.sql`
  SELECT poster_id AS user_id FROM issue WHERE id = ${issueId}
  UNION SELECT user_id FROM issue_assignee WHERE issue_id = ${issueId}
  UNION SELECT user_id FROM issue_mention WHERE issue_id = ${issueId}
  UNION SELECT poster_id FROM comment WHERE issue_id = ${issueId}`;

/** The ids of those watching: explicit watchers, and participants who did not opt out. */
const watchers = (issueId: bigint) => Prisma.sql`
  SELECT user_id FROM issue_watch WHERE issue_id = ${issueId} AND is_watching
  UNION
  SELECT p.user_id FROM (${participants(issueId)}) p
   WHERE NOT EXISTS (SELECT 1 FROM issue_watch w WHERE w.issue_id = ${issueId} AND w.user_id = p.user_id)`;

export function subscriptionStore(db: CollaborationDb): SubscriptionStore {
  return {
    async isWatching(issueId, userId) {
      const [row] = await db.$queryRaw<Array<{ watching: boolean }>>`
        SELECT EXISTS (SELECT 1 FROM (${watchers(BigInt(issueId))}) w WHERE w.user_id = ${BigInt(userId)}) AS watching`;
      return row.watching;
    },

    async setWatching(issueId, userId, watching) {
      await db.issueWatch.upsert({
        where: { issue_id_user_id: { issue_id: BigInt(issueId), user_id: BigInt(userId) } },
        create: { issue_id: BigInt(issueId), user_id: BigInt(userId), is_watching: watching },
        update: { is_watching: watching, updated_at: new Date() },
      });
    },

    async subscribers(issueId, page) {
      const rows = await db.$queryRaw<Array<{ id: bigint; profile: UserProfile; total: bigint }>>`
        SELECT u.id, u.profile, count(*) OVER () AS total FROM "user" u
         WHERE u.id IN (${watchers(BigInt(issueId))})
         ORDER BY u.id LIMIT ${page.limit} OFFSET ${page.offset}`;
      return { items: rows.map((r) => ({ ...r.profile, id: Number(r.id) })), total: Number(rows[0]?.total ?? 0) };
    },
  };
}
