// Test deliveries (POST /hooks/{id}/tests): a push payload queued for one hook regardless of
// the events it chose. Implemented by the delivery queue (delivery/test-deliveries.ts).
import type { Webhook } from './webhooks.js';

/**
 * The domain only hands the sample push on, so its shape is the implementation's to choose:
 * the delivery queue renders payloads from repository's push event message and fixes `Push`
 * to it, which keeps wire types out of the domain.
 */
export interface TestDeliveries<Push> {
  enqueueTest(hook: Webhook, push: Push): Promise<void>;
}
