// Reactions in PostgreSQL (table `reaction`), read with their users from the user read model.
import type { Reaction, ReactionStore, ReactionTarget } from '../domain/reactions.js';
import type { UserProfile } from '../domain/users.js';
import { Prisma } from './generated/client.js';
import type { CollaborationDb } from './db.js';
import { rememberUsers } from './users.js';

interface ReactionRow { user_id: bigint; type: string; created_at: Date; profile: UserProfile | null; total?: bigint }

const toReaction = (row: ReactionRow): Reaction => ({
  userId: Number(row.user_id), user: row.profile ? { ...row.profile, id: Number(row.profile.id) } : undefined, content: row.type, createdAt: row.created_at,
});

const where = (target: ReactionTarget) => Prisma.sql`r.issue_id = ${BigInt(target.issueId)} AND r.comment_id = ${BigInt(target.commentId)}`;

export function reactionStore(db: CollaborationDb): ReactionStore {
  async function read(target: ReactionTarget, userId: number, content: string): Promise<Reaction | undefined> {
    const [row] = await db.$queryRaw<ReactionRow[]>`SELECT r.user_id, r.type, r.created_at, u.profile FROM reaction r LEFT JOIN "user" u ON u.id = r.user_id
      WHERE ${where(target)} AND r.user_id = ${BigInt(userId)} AND r.type = ${content}`;
    return row ? toReaction(row) : undefined;
  }

  return {
    async list(target, page) {
      const limit = page ? Prisma.sql`LIMIT ${page.limit} OFFSET ${page.offset}` : Prisma.empty;
      const rows = await db.$queryRaw<ReactionRow[]>`SELECT r.user_id, r.type, r.created_at, u.profile, count(*) OVER () AS total
        FROM reaction r LEFT JOIN "user" u ON u.id = r.user_id WHERE ${where(target)} ORDER BY r.id ${limit}`;
      return { items: rows.map(toReaction), total: Number(rows[0]?.total ?? 0) };
    },

    async add(known, target, userId, content) {
      await rememberUsers(db, known);
      const { count } = await db.reaction.createMany({
        data: [{ issue_id: BigInt(target.issueId), comment_id: BigInt(target.commentId), user_id: BigInt(userId), type: content }], skipDuplicates: true,
      });
      return { reaction: (await read(target, userId, content))!, created: count > 0 };
    },

    async remove(target, userId, content) {
      await db.reaction.deleteMany({ where: { issue_id: BigInt(target.issueId), comment_id: BigInt(target.commentId), user_id: BigInt(userId), type: content } });
    },
  };
}
