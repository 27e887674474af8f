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

/**
 * How long JetStream waits for a consumer to acknowledge an event before it hands the event
 * to another puller (ANVIL_EVENTS_ACK_WAIT_MS, default 30 s): what a replica killed
 * mid-event costs in delay. Consumers report work in progress more often than this
 * (consumer.ts), so a slow handler is not redelivered meanwhile. Read when a durable
 * consumer is first created; an existing one keeps its own.
 */
export function eventsAckWaitMs(env: Record<string, string | undefined> = process.env): number {
  const raw = env.ANVIL_EVENTS_ACK_WAIT_MS;
  if (raw === undefined || raw === '') return 30_000;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 1_000) throw new Error(`ANVIL_EVENTS_ACK_WAIT_MS must be a whole number of milliseconds, at least 1000, got ${JSON.stringify(raw)}`);
  return ms;
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
