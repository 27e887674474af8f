// Test deliveries (POST /hooks/{id}/tests): a push payload queued for one hook regardless of
// the events it chose. Implemented by the delivery queue (delivery/queue.ts).
import type { repository } from '@anvil/proto';
import type { Webhook } from './webhooks.js';

export interface TestDeliveries {
  enqueueTest(hook: Webhook, push: repository.Push): Promise<void>;
}
