// Test deliveries (POST /repos/{o}/{r}/hooks/{id}/tests): a push payload queued for one hook,
// sent by the pool like any other delivery.
import { randomUUID } from 'node:crypto';
import type { repository } from '@anvil/proto';
import type { TestDeliveries } from '../domain/test-delivery.js';
import { deliveryBody } from '../payloads/body.js';
import { pushPayload } from '../payloads/gitea.js';
import type { HooksDb } from '../store/db.js';
import { queueDeliveries } from '../store/deliveries.js';

export function testDeliveries(db: HooksDb, rootUrl: string): TestDeliveries<repository.Push> {
  return {
    async enqueueTest(hook, push) {
      const payload = deliveryBody(hook, 'push', pushPayload(push, rootUrl));
      await queueDeliveries(db, [{ hookId: hook.id, eventId: `test:${randomUUID()}`, event: 'push', payload }]);
    },
  };
}
