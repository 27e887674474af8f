// The deliveries API (beyond Gitea, whose users have long asked for it): a hook's recent
// deliveries, one delivery with its request and response, and redelivery. The hook is found
// in its scope first, so a delivery is only ever seen through a hook the caller manages.
import { invalid, notFound, type Caller } from '@anvil/kit';
import type { Delivery } from './deliveries.js';
import { getHook, type HookScope, type WebhookStore } from './webhooks.js';

export interface DeliveryHistory {
  list(hookId: number, page: { offset: number; limit: number }): Promise<{ items: Delivery[]; total: number }>;
  find(hookId: number, uuid: string): Promise<Delivery | undefined>;
  /** Marks the delivery due now; answers it as it then is. */
  redeliver(hookId: number, uuid: string): Promise<Delivery | undefined>;
}

export interface DeliveryDeps {
  webhooks: WebhookStore;
  deliveries: DeliveryHistory;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function checkUuid(uuid: string): string {
  // Not a uuid: no such delivery (never a database error).
  if (!UUID.test(uuid)) throw notFound(`hook delivery does not exist [uuid: ${uuid}]`, 'delivery_not_found');
  return uuid.toLowerCase();
}

export async function listDeliveries(deps: DeliveryDeps, scope: HookScope, hookId: number, page: { offset: number; limit: number }, caller: Caller) {
  const hook = await getHook(deps.webhooks, scope, hookId, caller);
  return deps.deliveries.list(hook.id, page);
}

export async function getDelivery(deps: DeliveryDeps, scope: HookScope, hookId: number, uuid: string, caller: Caller): Promise<Delivery> {
  const hook = await getHook(deps.webhooks, scope, hookId, caller);
  const delivery = await deps.deliveries.find(hook.id, checkUuid(uuid));
  if (!delivery) throw notFound(`hook delivery does not exist [uuid: ${uuid}]`, 'delivery_not_found');
  return delivery;
}

/** Redelivery of a delivery still being retried is refused: it is already on its way. */
export async function redeliver(deps: DeliveryDeps, scope: HookScope, hookId: number, uuid: string, caller: Caller): Promise<Delivery> {
  const current = await getDelivery(deps, scope, hookId, uuid, caller);
  if (current.status === 'pending') throw invalid('the delivery is still pending; it will be attempted again', 'delivery_pending');
  const queued = await deps.deliveries.redeliver(current.hookId, current.uuid);
  if (!queued) throw notFound(`hook delivery does not exist [uuid: ${uuid}]`, 'delivery_not_found');
  return queued;
}
