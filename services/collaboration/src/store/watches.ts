// Repository watches in PostgreSQL (table repo_watch). A change and its repo_watch event are
// written in one transaction; a watch that already is as asked writes nothing, so the
// repository service's count moves only with real changes.
import { outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import type { UserProfile } from '../domain/users.js';
import type { WatchStore } from '../domain/watches.js';
import { outboxRowOfWatchChange } from '../events/watch-events.js';
import type { CollaborationDb, CollaborationTx } from './db.js';
import { rememberUsers } from './users.js';

type Client = CollaborationDb | CollaborationTx;

/** Starts or stops one watch inside the caller's transaction; true when something changed. */
export async function changeWatch(tx: CollaborationTx, repositoryId: number, userId: number, watching: boolean): Promise<boolean> {
  const key = { repository_id: BigInt(repositoryId), user_id: BigInt(userId) };
  const changed = watching
    ? (await tx.repoWatch.createMany({ data: [key], skipDuplicates: true })).count
    : (await tx.repoWatch.deleteMany({ where: key })).count;
  if (changed) await tx.outboxEvent.create({ data: outboxRowOfWatchChange(repositoryId, userId, watching) });
  return changed > 0;
}

/**
 * Records the watch of a new repository's creator, which the repository service counted when
 * it made the row: the event changes its count by 0, or by -1 when the creator had watched
 * on their own before this ran (that start was counted too; watches.proto, count_change).
 * A second announcement of the creation finds the watch marked and writes nothing.
 */
export async function recordCreatorWatch(tx: CollaborationTx, repositoryId: number, userId: number): Promise<void> {
  // One statement: insert the watch, or mark the creator's own earlier one; `counted` is
  // what the repository's count already held for this watch beside the creation's.
  const [recorded] = await tx.$queryRaw<Array<{ counted: boolean }>>`
    INSERT INTO repo_watch (repository_id, user_id, counted_at_creation) VALUES (${BigInt(repositoryId)}, ${BigInt(userId)}, true)
    ON CONFLICT (repository_id, user_id) DO UPDATE SET counted_at_creation = true WHERE NOT repo_watch.counted_at_creation
    RETURNING (xmax <> 0) AS counted`;
  if (recorded) await tx.outboxEvent.create({ data: outboxRowOfWatchChange(repositoryId, userId, true, recorded.counted ? -1 : 0) });
}

/** A deleted repository's watches go with it (the repository service's count goes too). */
export async function removeRepositoryWatches(tx: Client, repositoryId: number): Promise<void> {
  await tx.repoWatch.deleteMany({ where: { repository_id: BigInt(repositoryId) } });
}

export function watchStore(db: CollaborationDb, options: OutboxStoreOptions = {}): WatchStore {
  const find = async (tx: Client, repositoryId: number, userId: number) => {
    const row = await tx.repoWatch.findUnique({ where: { repository_id_user_id: { repository_id: BigInt(repositoryId), user_id: BigInt(userId) } } });
    return row ? { createdAt: row.created_at } : undefined;
  };
  return {
    find: (repositoryId, userId) => find(db, repositoryId, userId),

    set(repositoryId, user: UserProfile, watching) {
      return outboxTransaction(db, (tx: CollaborationTx, published: string[]) => ({ tx, published }), async ({ tx, published }) => {
        await rememberUsers(tx, [user]);
        if (await changeWatch(tx, repositoryId, user.id, watching)) published.push('watch');
        return watching ? find(tx, repositoryId, user.id) : undefined;
      }, options);
    },

    async watchers(repositoryId, page) {
      const rows = await db.$queryRaw<Array<{ id: bigint; profile: UserProfile; total: bigint }>>`
        SELECT u.id, u.profile, count(*) OVER () AS total
          FROM repo_watch w JOIN "user" u ON u.id = w.user_id
         WHERE w.repository_id = ${BigInt(repositoryId)}
         ORDER BY u.id LIMIT ${page.limit} OFFSET ${page.offset}`;
      return { items: rows.map((r) => ({ ...r.profile, id: Number(r.id) })), total: Number(rows[0]?.total ?? 0) };
    },

    async watchedBy(userId) {
      const rows = await db.repoWatch.findMany({ where: { user_id: BigInt(userId) }, select: { repository_id: true }, orderBy: { repository_id: 'asc' } });
      return rows.map((r) => Number(r.repository_id));
    },
  };
}
