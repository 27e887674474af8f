// Push mirrors with sync_on_commit follow every push (Gitea's SyncPushMirror after a push):
// on repository.push, the repository's such mirrors become due now and the local push
// scheduler is woken; the scheduler's lease keeps it to one push per mirror across
// replicas. Idempotent: a redelivered event only makes them due again.
import type { ConsumerOptions, Logger } from '@anvil/kit';
import type { repository as pb } from '@anvil/proto';
import type { RepositoryTx } from '../store/db.js';

export const PUSH_MIRROR_CONSUMER = 'repository-push-mirrors';

export function pushMirrorOnCommitConsumer(
  log: Logger, markDue: (repositoryId: number) => Promise<number>, kick: () => void,
): Omit<ConsumerOptions<RepositoryTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: PUSH_MIRROR_CONSUMER,
    filter: 'repository.push',
    // Making mirrors due twice is harmless: no transaction or processed_event row per push.
    idempotent: true,
    async handle(event) {
      const push = event.payload as pb.Push | undefined;
      const id = Number(push?.repository?.id ?? 0);
      if (!id) return;
      const due = await markDue(id);
      if (due > 0) {
        log.debug({ repository: id, mirrors: due }, 'push mirrors due after a push');
        kick();
      }
    },
  };
}
