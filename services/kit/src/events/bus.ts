// The NATS JetStream side of events (DESIGN.md §4): one stream holding every subject under
// the namespace. The namespace (ANVIL_EVENTS_NAMESPACE, default "anvil") lets several Anvil
// installations, or parallel test runs, share one NATS server without seeing each other.
import { connect, nanos, RetentionPolicy, StorageType, type JetStreamManager, type NatsConnection } from 'nats';
import type { Logger } from 'pino';

export interface EventBus {
  nc: NatsConnection;
  jsm: JetStreamManager;
  namespace: string;
  stream: string;
  /** Full subject for a context-relative one: `identity.user.created` → `anvil.identity.user.created`. */
  subject(relative: string): string;
}

export function eventsNamespace(env: Record<string, string | undefined> = process.env): string {
  const ns = env.ANVIL_EVENTS_NAMESPACE || 'anvil';
  if (!/^[a-z][a-z0-9_-]*$/.test(ns)) throw new Error(`ANVIL_EVENTS_NAMESPACE must be lower-case letters, digits, _ or -, got ${JSON.stringify(ns)}`);
  return ns;
}

export function streamName(namespace: string): string {
  return namespace.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/** Connects and makes sure the stream exists (idempotent: every service may create it). */
export async function connectEventBus(url: string, clientName: string, namespace: string, log: Logger): Promise<EventBus> {
  const nc = await connect({ servers: url, name: clientName, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
  nc.closed().then((err) => err && log.error({ err }, 'NATS connection closed with an error'));
  const jsm = await nc.jetstreamManager();
  const stream = streamName(namespace);
  try {
    await jsm.streams.info(stream);
  } catch {
    try {
      await jsm.streams.add({
        name: stream,
        subjects: [`${namespace}.>`],
        retention: RetentionPolicy.Limits,
        storage: StorageType.File,
        // Republished outbox rows carry the same Nats-Msg-Id; inside this window the stream drops them.
        duplicate_window: nanos(10 * 60 * 1000),
      });
      log.info({ stream }, 'created event stream');
    } catch (err) {
      // Another replica may have created it between our info and add.
      await jsm.streams.info(stream).catch(() => Promise.reject(err));
    }
  }
  return { nc, jsm, namespace, stream, subject: (relative) => `${namespace}.${relative}` };
}
