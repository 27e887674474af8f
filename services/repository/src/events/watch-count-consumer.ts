// Consumes collaboration's repo_watch events into repository.num_watches (Gitea keeps the
// same counter on its repository row), so every repository JSON carries watchers_count
// without a call per repository. The creator's watch is counted when the row is made
// (store/repositories.ts insert); its event carries count_change 0 (watches.proto). One
// change per event, applied once: the kit runs `handle` inside the processed-event
// transaction. The update leaves updated_at alone (watching is no change to the
// repository); the row's access trigger still refreshes the gateways' cache.
import type { ConsumerOptions } from '@anvil/kit';
import type { collaboration } from '@anvil/proto';
import type { RepositoryTx } from '../store/db.js';

export const WATCH_COUNT_CONSUMER = 'repository-watch-count';

export function watchCountConsumer(): Omit<ConsumerOptions<RepositoryTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: WATCH_COUNT_CONSUMER,
    filter: 'collaboration.repo_watch.>',
    async handle(event, tx) {
      const change = event.payload as collaboration.RepositoryWatchChanged | undefined;
      const id = Number(change?.repository_id ?? 0);
      if (!id) return;
      const delta = change!.count_change ?? (event.subject.endsWith('.started') ? 1 : -1);
      if (delta === 0) return;
      await tx.$executeRaw`UPDATE repository SET num_watches = greatest(num_watches + ${delta}, 0) WHERE id = ${BigInt(id)}`;
    },
  };
}
