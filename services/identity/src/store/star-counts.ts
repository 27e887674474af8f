// user.num_stars, moved by one star at a time (events/star-count-consumer.ts). The update
// leaves updated_at alone: starring is no change to the user's profile. A user deleted
// meanwhile has no row, and the event changes nothing.
import type { IdentityTx } from './db.js';

export async function moveStarCount(tx: IdentityTx, userId: number, delta: 1 | -1): Promise<void> {
  await tx.$executeRaw`UPDATE "user" SET num_stars = greatest(num_stars + ${delta}, 0) WHERE id = ${BigInt(userId)}`;
}
