// Cache hints: "what you remember of X may be stale now", sent over plain NATS. A hint
// carries no data and nothing depends on receiving it: a cache that misses one still lets
// its entries expire. So hints stay out of the event stream (not durable, not replayed, not
// in the outbox); their subjects start with `_hint.`, which no namespace can (namespaces
// start with a letter), so the stream's `<namespace>.>` never stores them.
import type { EventBus } from './bus.js';

/** Every hint there is, by what it says; publisher and subscribers use these names. */
export const HINTS = {
  /** Something ResolveRepository reads changed (repository service → gateways). */
  repositoryAccess: 'repository.access',
} as const;

/** The NATS subject of a hint, e.g. `repository.access` → `_hint.anvil.repository.access`. */
export function hintSubject(bus: Pick<EventBus, 'namespace'>, name: string): string {
  return `_hint.${bus.namespace}.${name}`;
}

export function publishHint(bus: EventBus, name: string): void {
  // Nats buffers publishes while it reconnects; a hint lost beyond that is bounded by TTLs.
  if (!bus.nc.isClosed()) bus.nc.publish(hintSubject(bus, name));
}

/**
 * Calls `onHint` for every hint of that name, and whenever the connection to NATS comes
 * back (hints sent while it was down are gone, so the cache must assume the worst).
 */
export function subscribeHints(bus: EventBus, name: string, onHint: () => void): () => void {
  const sub = bus.nc.subscribe(hintSubject(bus, name), { callback: () => onHint() });
  let watching = true;
  (async () => {
    for await (const status of bus.nc.status()) {
      if (!watching) break;
      if (status.type === 'reconnect') onHint();
    }
  })();
  return () => {
    watching = false;
    sub.unsubscribe();
  };
}
