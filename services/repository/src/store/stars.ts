// Stars in PostgreSQL (table `star`), with the repository's num_stars moved and a star event
// written (identity counts the user's stars from it) in the same transaction as the row, and
// only when a row was really added or removed: a repeated star or unstar leaves the counts
// (and the gateways' caches) alone.
import type { OutboxStoreOptions } from '@anvil/kit';
import type { StarStore } from '../domain/stars.js';
import { outboxRowOfStarChange } from '../events/star-events.js';
import type { Owner as OwnerRow } from './generated/client.js';
import type { RepositoryDb, RepositoryTx } from './db.js';
import { toOwner } from './owners.js';

export function starStore(db: RepositoryDb, options: OutboxStoreOptions = {}): StarStore {
  return {
    async setStar(userId, repositoryId, star) {
      const user = BigInt(userId);
      const repository = BigInt(repositoryId);
      const changed = await db.$transaction(async (tx) => {
        const [row] = star
          ? await tx.$queryRaw<Array<{ announced: boolean }>>`INSERT INTO star (user_id, repository_id) VALUES (${user}, ${repository})
              ON CONFLICT DO NOTHING RETURNING announced`
          : await tx.$queryRaw<Array<{ announced: boolean }>>`DELETE FROM star WHERE user_id = ${user} AND repository_id = ${repository} RETURNING announced`;
        if (!row) return false;
        await tx.$executeRaw`UPDATE repository SET num_stars = greatest(num_stars + ${star ? 1 : -1}, 0) WHERE id = ${repository}`;
        // A star never announced was never counted: its removal is not announced either.
        if (!row.announced) return false;
        await tx.outboxEvent.create({ data: outboxRowOfStarChange(repositoryId, userId, star) });
        return true;
      });
      if (changed) options.onPublished?.();
    },

    async isStarring(userId, repositoryId) {
      return (await db.star.count({ where: { user_id: BigInt(userId), repository_id: BigInt(repositoryId) } })) > 0;
    },

    async stargazers(repositoryId, offset, limit) {
      const repository = BigInt(repositoryId);
      const [rows, total] = await Promise.all([
        db.$queryRaw<OwnerRow[]>`SELECT o.* FROM star s JOIN owner o ON o.id = s.user_id
          WHERE s.repository_id = ${repository} ORDER BY s.created_at, s.user_id OFFSET ${offset} LIMIT ${limit}`,
        db.star.count({ where: { repository_id: repository } }),
      ]);
      return { users: rows.map(toOwner), total };
    },

    async starredRepositoryIds(userId) {
      const rows = await db.star.findMany({ where: { user_id: BigInt(userId) }, select: { repository_id: true }, orderBy: { created_at: 'desc' } });
      return rows.map((r) => Number(r.repository_id));
    },
  };
}

/**
 * Removes the stars on repositories about to be deleted, each with its `removed` event, so
 * the users who starred them count one fewer (Gitea's DeleteRepository lowers their
 * num_stars). Call it in the deleting transaction before the rows go: the foreign key would
 * otherwise drop the stars without a word.
 */
export async function dropRepositoryStars(tx: RepositoryTx, repositoryIds: readonly bigint[]): Promise<void> {
  if (!repositoryIds.length) return;
  const dropped = await tx.$queryRaw<Array<{ user_id: bigint; repository_id: bigint; announced: boolean }>>`
    DELETE FROM star WHERE repository_id = ANY(${[...repositoryIds]}::bigint[]) RETURNING user_id, repository_id, announced`;
  // Stars never announced were never counted (announceEarlierStars).
  const counted = dropped.filter((s) => s.announced);
  if (!counted.length) return;
  await tx.outboxEvent.createMany({
    data: counted.map((s) => outboxRowOfStarChange(Number(s.repository_id), Number(s.user_id), false)),
  });
}

const ANNOUNCE_BATCH = 500;

/**
 * Announces (repository.star.added) the stars kept before stars had events, in batches, each
 * batch's rows marked in the transaction that writes their events, so identity counts them
 * once however many replicas start at once. Answers how many it announced.
 */
export async function announceEarlierStars(db: RepositoryDb, onPublished?: () => void): Promise<number> {
  let total = 0;
  for (;;) {
    const batch = await db.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<Array<{ user_id: bigint; repository_id: bigint }>>`
        UPDATE star SET announced = true WHERE (user_id, repository_id) IN (
          SELECT user_id, repository_id FROM star WHERE NOT announced LIMIT ${ANNOUNCE_BATCH} FOR UPDATE SKIP LOCKED)
        RETURNING user_id, repository_id`;
      if (rows.length) {
        await tx.outboxEvent.createMany({ data: rows.map((s) => outboxRowOfStarChange(Number(s.repository_id), Number(s.user_id), true)) });
      }
      return rows.length;
    });
    if (!batch) return total;
    total += batch;
    onPublished?.();
  }
}

/** A deleted user's stars go, and the repositories they starred count one fewer (Gitea's DeleteUser). */
export async function forgetStars(tx: RepositoryTx, userId: number): Promise<void> {
  const user = BigInt(userId);
  await tx.$executeRaw`UPDATE repository r SET num_stars = greatest(r.num_stars - 1, 0) FROM star s WHERE s.repository_id = r.id AND s.user_id = ${user}`;
  await tx.$executeRaw`DELETE FROM star WHERE user_id = ${user}`;
}
