// Notification threads from collaboration's own events (DESIGN.md §4): a durable JetStream
// consumer, never the request, writes them, so a burst of comments costs the API nothing.
// Each event is handled once (the kit's processed_event row commits with the threads), and
// the threads are upserted per (user, issue), so an API-created pull request notifies each
// watcher once, whatever else its creation published.
import type { ConsumerOptions } from '@anvil/kit';
import { notifyFactsOf } from '../domain/notification-recipients.js';
import type { CollaborationTx } from '../store/db.js';
import { writeNotifications } from '../store/notifications.js';

export const NOTIFICATION_CONSUMER = 'collaboration-notifications';

export function notificationConsumer(): Omit<ConsumerOptions<CollaborationTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: NOTIFICATION_CONSUMER,
    filter: 'collaboration.>',
    async handle(event, tx) {
      const facts = notifyFactsOf(event.subject, event.payload);
      if (facts) await writeNotifications(tx, facts);
    },
  };
}
