// The hooks service's one durable consumer (named `hooks`, shared by every replica): each
// event with a row in HOOK_EVENT_KINDS becomes one delivery per matching active hook,
// written in the transaction that marks the event processed (kit consumer), so an event is
// turned into deliveries exactly once and none is lost in a crash.
import type { ConsumerOptions, ReceivedEvent } from '@anvil/kit';
import { branchFilterMatches } from '../domain/glob.js';
import type { NewDelivery } from '../domain/deliveries.js';
import { deliveryBody } from '../payloads/body.js';
import type { HooksTx } from '../store/db.js';
import { hooksFor, queueDeliveries } from '../store/deliveries.js';
import type { HookMatchCache } from '../store/hook-match-cache.js';
import { removeRepositoryHooks } from '../store/webhooks.js';
import { HOOK_EVENT_KINDS, hookEventOf } from './hook-event-kinds.js';

export const HOOKS_CONSUMER = 'hooks';
const REPOSITORY_DELETED = 'repository.repo.deleted';

export async function deliveriesForEvent(tx: HooksTx, event: ReceivedEvent, rootUrl: string, cache?: HookMatchCache): Promise<number> {
  const kind = HOOK_EVENT_KINDS[event.subject];
  if (!kind || !event.payload) return 0;
  const hookEvent = hookEventOf(kind, event.payload);
  if (!hookEvent) return 0;
  const repo = kind.repository(event.payload);
  // A deleted repository's own hooks go with it (as in Gitea); its owner's and the site's
  // hooks still hear of the deletion.
  if (event.subject === REPOSITORY_DELETED) await removeRepositoryHooks(tx, Number(repo.id));
  const target = { id: Number(repo.id), ownerId: Number(repo.owner_id) };
  const load = () => hooksFor(tx, target, hookEvent);
  const hooks = cache ? await cache.get(target, hookEvent, load) : await load();
  const branch = kind.branch?.(event.payload);
  const matching = hooks.filter((hook) => branch === undefined || branchFilterMatches(hook.branchFilter, branch));
  if (!matching.length) return 0;
  const payload = kind.build(event.payload, rootUrl);
  const deliveries: NewDelivery[] = matching.map((hook) => ({
    hookId: hook.id, eventId: event.id, event: hookEvent, payload: deliveryBody(hook, hookEvent, payload),
  }));
  await queueDeliveries(tx, deliveries);
  return deliveries.length;
}

export function webhookConsumer(rootUrl: string, cache?: HookMatchCache): Omit<ConsumerOptions<HooksTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: HOOKS_CONSUMER,
    // Every subject: the table decides, so a new event kind needs no new consumer.
    filter: '>',
    handle: async (event, tx) => {
      await deliveriesForEvent(tx, event, rootUrl, cache);
    },
  };
}
