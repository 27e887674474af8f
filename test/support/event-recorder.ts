// Records the events a context publishes on NATS during an e2e run, so a test can wait for
// the one it expects (already seen or still to come) instead of sleeping.
import { connect } from 'nats';
import { decodeEvent } from '@anvil/proto';
import type { RunningSystem } from './system.js';

export interface RecordedEvent {
  /** The subject without the run's namespace, e.g. `repository.push`. */
  subject: string;
  payload: any;
}

export interface EventRecorder {
  events: RecordedEvent[];
  /** Resolves with the first event (already seen or still to come) that matches. */
  eventMatching(match: (e: RecordedEvent) => boolean): Promise<RecordedEvent>;
  close(): Promise<void>;
}

/** Subscribes to `<namespace>.<context>.>` of the booted system. */
export async function recordEvents(system: RunningSystem, context: string): Promise<EventRecorder> {
  const namespace = system.env.ANVIL_EVENTS_NAMESPACE!;
  const nats = await connect({ servers: system.env.NATS_URL });
  const events: RecordedEvent[] = [];
  const waiters: Array<() => void> = [];
  const subscription = nats.subscribe(`${namespace}.${context}.>`);
  void (async () => {
    for await (const message of subscription) {
      const type = message.headers?.get('Anvil-Event-Type');
      if (!type) continue;
      events.push({ subject: message.subject.slice(namespace.length + 1), payload: decodeEvent(type, message.data) });
      for (const wake of waiters.splice(0)) wake();
    }
  })();
  return {
    events,
    eventMatching(match) {
      return new Promise((resolve) => {
        // A waiter woken by an event it does not want waits for the next one.
        const check = () => {
          const found = events.find(match);
          if (found) resolve(found);
          else waiters.push(check);
        };
        check();
      });
    },
    close: () => nats.close(),
  };
}
