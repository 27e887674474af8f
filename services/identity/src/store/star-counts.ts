// user.num_stars, moved by one star at a time (events/star-count-consumer.ts). The update
// leaves updated_at alone: starring is no change to the user's profile. A user deleted
// meanwhile has no row, and the event changes nothing.
import { outboxRowOf } from '../events/identity-events.js';
import type { IdentityTx } from './db.js';
import { toUser } from './rows.js';

/**
 * Moves the count and announces the user as identity.user.updated in the same transaction:
 * the read models other services keep of users (repository's owners, collaboration's users)
 * show the count in repository owners, issue JSON and webhook payloads, as Gitea's
 * starred_repos_count.
 */
export async function moveStarCount(tx: IdentityTx, userId: number, delta: 1 | -1): Promise<void> {
  const moved = await tx.$executeRaw`UPDATE "user" SET num_stars = greatest(num_stars + ${delta}, 0) WHERE id = ${BigInt(userId)}`;
  if (!moved) return;
  const row = await tx.user.findUnique({ where: { id: BigInt(userId) } });
  if (row) await tx.outboxEvent.create({ data: outboxRowOf({ kind: 'user.updated', user: toUser(row) }) });
}
