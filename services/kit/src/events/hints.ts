// Cache hints: "what you remember of X may be stale now", sent over plain NATS. A hint
// carries no data and nothing depends on receiving it: a cache that misses one still lets
// its entries expire. So hints stay out of the event stream (not durable, not replayed, not
// in the outbox); their subjects start with `_hint.`, which no namespace can (namespaces
// start with a letter), so the stream's `<namespace>.>` never stores them.
import type { EventBus } from './bus.js';
import type { NotificationHandler } from '../db/listen.js';

/** Every hint there is, by what it says; publisher and subscribers use these names. */
export const HINTS = {
  /**
   * Something ResolveRepository reads changed (repository service → gateways). The payload:
   * the repositories' ids, comma separated, or `*` for any repository; an id marked `+<id>`
   * is a change that may make a name resolve for someone who was told it does not (a
   * repository created, renamed or made public, a collaboration or team grant); one marked
   * `~<id>` a change to the repository's figures alone (its size, updated_at and counts: what
   * only its JSON shows, no guard).
   */
  repositoryAccess: 'repository.access',
  /**
   * Something a repository's API answers show changed (repository and collaboration
   * services → gateways' answer caches). The payload: the repositories' ids, comma
   * separated, or `*` for any repository.
   */
  repositoryAnswers: 'repository.answers',
} as const;

/** The payload of a hint about every repository (and what a subscriber hears on reconnect). */
export const ANY_REPOSITORY = '*';

/** The NATS subject of a hint, e.g. `repository.access` → `_hint.anvil.repository.access`. */
export function hintSubject(bus: Pick<EventBus, 'namespace'>, name: string): string {
  return `_hint.${bus.namespace}.${name}`;
}

export function publishHint(bus: EventBus, name: string, payload?: string): void {
  // Nats buffers publishes while it reconnects; a hint lost beyond that is bounded by TTLs.
  if (!bus.nc.isClosed()) bus.nc.publish(hintSubject(bus, name), payload);
}

/**
 * Calls `onHint` with the payload of every hint of that name, and with undefined whenever
 * the connection to NATS comes back (hints sent while it was down are gone, so the cache
 * must assume the worst).
 */
export function subscribeHints(bus: EventBus, name: string, onHint: (payload: string | undefined) => void): () => void {
  const sub = bus.nc.subscribe(hintSubject(bus, name), { callback: (_err, message) => onHint(message.string()) });
  let watching = true;
  (async () => {
    for await (const status of bus.nc.status()) {
      if (!watching) break;
      if (status.type === 'reconnect') onHint(undefined);
    }
  })();
  return () => {
    watching = false;
    sub.unsubscribe();
  };
}

/**
 * The PostgreSQL channel whose notifications name a changed repository: raised by row
 * triggers (the repository and collaboration services' migrations) with the repository's id,
 * or `*` for a change that touches any repository's answers.
 */
export const ANSWERS_CHANNEL = 'repository_answers_changed';

/**
 * A notification handler that forwards the repositories named on ANSWERS_CHANNEL as the
 * repository-answers hint: the ids of one burst of commits (they arrive in one read) go in
 * one hint per turn of the event loop; a (re)connect, which may have missed any, sends `*`.
 */
export function answerHintForwarder(bus: EventBus): NotificationHandler {
  return repositoryHintForwarder(bus, HINTS.repositoryAnswers);
}

/**
 * A notification handler that forwards the repository ids named by a channel's notifications
 * as the hint `name` (an empty payload names any repository), batched as answerHintForwarder
 * says.
 */
export function repositoryHintForwarder(bus: EventBus, name: string): NotificationHandler {
  let pending: Set<string> | undefined;
  return (payload) => {
    const repository = payload === undefined || payload === '' ? ANY_REPOSITORY : payload;
    if (pending) {
      pending.add(repository);
      return;
    }
    pending = new Set([repository]);
    setImmediate(() => {
      const repositories = pending!;
      pending = undefined;
      publishHint(bus, name, repositories.has(ANY_REPOSITORY) ? ANY_REPOSITORY : [...repositories].join(','));
    });
  };
}
