// Consumes repository's star events (repository.star.added|removed) into user.num_stars, which
// Gitea keeps on its user row and reports as starred_repos_count. One change per event,
// applied once: the kit runs `handle` inside the processed-event transaction. The count
// follows a star within moments (the outbox relay, then this consumer), not in the star's
// own transaction: identity does not own stars, only the count of them. Each new count is
// announced as identity.user.updated (store/star-counts.ts), so the other services' read
// models of users show it too.
import type { ConsumerOptions } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import type { IdentityTx } from '../store/db.js';
import { moveStarCount } from '../store/star-counts.js';

export const STAR_COUNT_CONSUMER = 'identity-star-count';

export function starCountConsumer(): Omit<ConsumerOptions<IdentityTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: STAR_COUNT_CONSUMER,
    filter: 'repository.star.>',
    async handle(event, tx) {
      const change = event.payload as repository.StarChanged | undefined;
      const userId = Number(change?.user_id ?? 0);
      // A malformed event cannot be fixed by retrying it.
      if (!userId) return;
      await moveStarCount(tx, userId, change?.star ? 1 : -1);
    },
  };
}
