// Notification threads from collaboration's own events (DESIGN.md §4): a durable JetStream
// consumer, never the request, writes them, so a burst of comments costs the API nothing.
// Each event is handled once (the kit's processed_event row commits with the threads), and
// the threads are upserted per (user, issue), so an API-created pull request notifies each
// watcher once, whatever else its creation published.
import type { ConsumerOptions } from '@anvil/kit';
import { notifyFactsOf, type NotifyFacts } from '../domain/notification-recipients.js';
import type { CollaborationTx } from '../store/db.js';
import { writeNotifications } from '../store/notifications.js';

export const NOTIFICATION_CONSUMER = 'collaboration-notifications';

/**
 * Events waiting are taken up to this many per transaction, and their threads written in one
 * statement at its end: with a transaction and a statement per event the consumer fell
 * behind (about 60 threads a second on two cores while comments came at 73).
 */
const NOTIFICATION_BATCH = 32;

export function notificationConsumer(): Omit<ConsumerOptions<CollaborationTx>, 'db' | 'bus' | 'log'> {
  // What the events of a transaction call for, written by `flush` before it commits.
  const pending = new WeakMap<CollaborationTx, NotifyFacts[]>();
  return {
    durable: NOTIFICATION_CONSUMER,
    filter: 'collaboration.>',
    batch: NOTIFICATION_BATCH,
    // Labels, milestones, times and the like notify nobody: acked with no transaction.
    wants: (event) => notifyFactsOf(event.subject, event.payload).length > 0,
    async handle(event, tx) {
      const facts = notifyFactsOf(event.subject, event.payload);
      if (!facts.length) return;
      const list = pending.get(tx) ?? [];
      pending.set(tx, list);
      list.push(...facts);
    },
    async flush(tx) {
      const facts = pending.get(tx) ?? [];
      pending.delete(tx);
      await writeNotifications(tx, facts);
    },
  };
}
