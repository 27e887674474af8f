// The hooks service's one durable consumer (named `hooks`, shared by every replica): each
// event with a row in HOOK_EVENT_KINDS becomes one delivery per matching active hook,
// written in the transaction that marks the event processed (kit consumer), so an event is
// turned into deliveries exactly once and none is lost in a crash.
import type { ConsumerOptions, ReceivedEvent } from '@anvil/kit';
import { branchFilterMatches } from '../domain/glob.js';
import type { NewDelivery } from '../domain/deliveries.js';
import { deliveryBody, hasDeliveryBody } from '../payloads/body.js';
import type { HookEvent } from '../domain/hook-events.js';
import type { Webhook } from '../domain/webhooks.js';
import type { HooksDb, HooksTx } from '../store/db.js';
import { hooksFor, queueDeliveries } from '../store/deliveries.js';
import type { HookMatchCache } from '../store/hook-match-cache.js';
import { removeRepositoryHooks } from '../store/webhooks.js';
import { HOOK_EVENT_KINDS, hookEventOf } from './hook-event-kinds.js';

export const HOOKS_CONSUMER = 'hooks';
const REPOSITORY_DELETED = 'repository.repo.deleted';

/**
 * The deliveries an event makes, one per matching active hook (not yet written). A
 * repository's deletion removes its own hooks first (as in Gitea); its owner's and the
 * site's hooks still hear of it.
 */
export async function deliveriesForEvent(tx: HooksTx, event: ReceivedEvent, rootUrl: string, cache?: HookMatchCache): Promise<NewDelivery[]> {
  const kind = HOOK_EVENT_KINDS[event.subject];
  if (!kind || !event.payload) return [];
  if (event.subject === REPOSITORY_DELETED) await removeRepositoryHooks(tx, Number(kind.repository(event.payload).id));
  const matched = await matchingHooks(tx, event, cache);
  if (!matched) return [];
  const payload = kind.build(event.payload, rootUrl);
  // A chat hook is sent nothing for an event its chat has no message for.
  return matched.hooks.filter((hook) => hasDeliveryBody(hook, matched.hookEvent)).map((hook) => ({
    hookId: hook.id, eventId: event.id, event: matched.hookEvent, payload: deliveryBody(hook, matched.hookEvent, payload),
  }));
}

/** The active hooks an event fires (its kind, repository, owner and branch), or undefined for none. */
async function matchingHooks(db: HooksTx | HooksDb, event: ReceivedEvent, cache?: HookMatchCache): Promise<{ hookEvent: HookEvent; hooks: Webhook[] } | undefined> {
  const kind = HOOK_EVENT_KINDS[event.subject];
  if (!kind || !event.payload) return undefined;
  const hookEvent = hookEventOf(kind, event.payload);
  if (!hookEvent) return undefined;
  const repo = kind.repository(event.payload);
  const target = { id: Number(repo.id), ownerId: Number(repo.owner_id) };
  const load = () => hooksFor(db, target, hookEvent);
  const hooks = cache ? await cache.get(target, hookEvent, load) : await load();
  const branch = kind.branch?.(event.payload);
  const matching = hooks.filter((hook) => branch === undefined || branchFilterMatches(hook.branchFilter, branch));
  return matching.length ? { hookEvent, hooks: matching } : undefined;
}

export function webhookConsumer(rootUrl: string, cache?: HookMatchCache, db?: HooksDb): Omit<ConsumerOptions<HooksTx>, 'db' | 'bus' | 'log'> {
  // The deliveries of the events handled in a transaction, written together at its end
  // (one INSERT and one wake-up for a batch of events instead of one each).
  const gathered = new WeakMap<HooksTx, NewDelivery[]>();
  const flush = async (tx: HooksTx) => {
    const deliveries = gathered.get(tx);
    gathered.delete(tx);
    if (deliveries?.length) await queueDeliveries(tx, deliveries);
  };
  return {
    durable: HOOKS_CONSUMER,
    // Every subject: the table decides, so a new event kind needs no new consumer. An event
    // without a row (identity's, a star, a language change), or one no active hook listens
    // to (a push to a repository without hooks: most of them), is acked at once, with no
    // transaction or processed_event row: it could make no delivery. The hooks are read
    // through the same cache the transaction reads them from, as fresh as it is.
    filter: '>',
    wants: async (event) => Object.hasOwn(HOOK_EVENT_KINDS, event.subject)
      && (event.subject === REPOSITORY_DELETED || !db || (await matchingHooks(db, event, cache)) !== undefined),
    handle: async (event, tx) => {
      // A deletion removes hooks: what earlier events of the batch gathered goes in first.
      if (event.subject === REPOSITORY_DELETED) await flush(tx);
      const deliveries = await deliveriesForEvent(tx, event, rootUrl, cache);
      if (!deliveries.length) return;
      const list = gathered.get(tx) ?? [];
      list.push(...deliveries);
      gathered.set(tx, list);
    },
    flush,
  };
}
