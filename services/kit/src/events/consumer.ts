// Durable, idempotent event consumption (DESIGN.md §4). One durable pull consumer per
// (service, subject filter), shared by every replica so each event is handled once; the
// handler runs in the same transaction as the processed_event insert keyed by event id,
// so a redelivery after a crash is recognised and skipped.
import { AckPolicy, DeliverPolicy, nanos, type ConsumerMessages, type JsMsg } from 'nats';
import type { Logger } from 'pino';
import { decodeEvent } from '@anvil/proto';
import { eventsAckWaitMs, type EventBus } from './bus.js';
import { EVENT_TYPE_HEADER } from './outbox.js';
import type { SqlClient, TransactionalSqlClient } from './sql.js';
import { inConsumerSpan } from '../telemetry/events.js';
import { recordConsumed } from '../telemetry/metrics.js';

export interface ReceivedEvent {
  id: string;
  /** Context-relative subject, e.g. `identity.user.created`. */
  subject: string;
  type: string;
  /** Decoded payload (protobuf → plain object, snake_case as in the .proto). */
  payload: unknown;
}

export interface ConsumerOptions<Tx extends SqlClient> {
  /** Durable name, e.g. `repository-identity-user`. */
  durable: string;
  /** Context-relative filter, e.g. `identity.user.>`. */
  filter: string;
  db: TransactionalSqlClient<Tx>;
  bus: EventBus;
  log: Logger;
  /**
   * `prepared` is what `prepare` returned for this event, if the consumer has one.
   */
  handle(event: ReceivedEvent, tx: Tx, prepared?: unknown): Promise<void>;
  /**
   * Slow work (git, other services) done BEFORE the event's transaction opens, so the
   * transaction holds its row locks only for the writes: a transaction that waited on
   * gRPC calls would hold them for as long, blocking requests that write the same rows (and
   * outlive its own timeout). Its result reaches `handle`, which must check that what it
   * read still holds. Redelivered events prepare again.
   */
  prepare?(event: ReceivedEvent): Promise<unknown>;
  /**
   * Called once per transaction, after its events were handled and before it commits: a
   * handler may gather its writes and make them here, as one statement for the batch.
   */
  flush?(tx: Tx): Promise<void>;
  /**
   * Up to this many events that are already waiting are handled in ONE transaction (one
   * processed_event insert, one commit) instead of one each: a consumer whose handler is a
   * few small writes is bound by commits, not by work. Idempotence is unchanged (an event
   * already processed is skipped inside the batch); a batch that fails is retried event by
   * event, so one bad event cannot hold the others back. Default 1 (no batching).
   */
  batch?: number;
  /**
   * Whether the consumer has anything to do for this event (a subject or a branch it acts
   * on, or a read outside any transaction, such as whether any webhook listens): one it does
   * not want is acked at once, with no transaction and no processed_event row (a filter such
   * as `repository.>` otherwise costs a transaction per event it ignores). Should it be
   * redelivered after it became wanted, it is handled then.
   */
  wants?(event: ReceivedEvent): boolean | Promise<boolean>;
  /**
   * The handler may see an event twice without harm (its work is outside the transaction, or
   * redoing it converges): its events are handled without the transaction and the
   * processed_event row that guard against a redelivery, and `tx` is the plain client.
   */
  idempotent?: boolean;
}

export interface RunningConsumer {
  /** Stops pulling and waits for the event in hand to finish. */
  stop(): Promise<void>;
}

export async function startConsumer<Tx extends SqlClient>(options: ConsumerOptions<Tx>): Promise<RunningConsumer> {
  const { bus, durable, log } = options;
  const ackWaitMs = eventsAckWaitMs();
  const config = {
    durable_name: durable,
    filter_subject: bus.subject(options.filter),
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(ackWaitMs),
    max_deliver: -1,
  };
  try {
    await bus.jsm.consumers.info(bus.stream, durable);
  } catch {
    await bus.jsm.consumers.add(bus.stream, config).catch(async (err) => {
      // A replica starting at the same time may have added it first.
      await bus.jsm.consumers.info(bus.stream, durable).catch(() => Promise.reject(err));
    });
  }
  const consumer = await bus.nc.jetstream().consumers.get(bus.stream, durable);
  const messages: ConsumerMessages = await consumer.consume({ max_messages: Math.max(64, 2 * (options.batch ?? 1)) });
  const prefix = `${bus.namespace}.`;

  const idOf = (m: JsMsg) => m.headers?.get('Nats-Msg-Id') || `${bus.stream}:${m.seq}`;
  const eventOf = (m: JsMsg): ReceivedEvent => {
    const type = m.headers?.get(EVENT_TYPE_HEADER) ?? '';
    return {
      id: idOf(m),
      subject: m.subject.startsWith(prefix) ? m.subject.slice(prefix.length) : m.subject,
      type,
      payload: type ? decodeEvent(type, m.data) : undefined,
    };
  };

  /** The consumer's `prepare` for one event, telling JetStream the event is in hand meanwhile. */
  const prepareOf = async (m: JsMsg, event: ReceivedEvent): Promise<unknown> => {
    if (!options.prepare) return undefined;
    // A preparation longer than the ack wait would otherwise be delivered again meanwhile.
    const beat = setInterval(() => m.working(), ackWaitMs / 3);
    try {
      return await options.prepare(event);
    } finally {
      clearInterval(beat);
    }
  };

  const skipped = async (m: JsMsg, event: ReceivedEvent) => {
    if (!options.wants || (await options.wants(event))) return false;
    m.ack();
    recordConsumed(durable, 'skipped', { redelivered: m.info.redelivered, pending: m.info.pending });
    return true;
  };

  /** One event in its own transaction (none for an idempotent consumer); a failure is nak'ed for a later redelivery. */
  const handleOne = async (m: JsMsg) => {
    const id = idOf(m);
    try {
      const event = eventOf(m);
      if (await skipped(m, event)) return;
      const prepared = await prepareOf(m, event);
      const fresh = await inConsumerSpan(durable, event.subject, m.headers, () => options.idempotent
        ? (async () => {
          // The client stands in for a transaction: the handler's writes commit one by one.
          const client = options.db as unknown as Tx;
          await options.handle(event, client, prepared);
          await options.flush?.(client);
          return true;
        })()
        : options.db.$transaction(async (tx) => {
          const inserted = await tx.$executeRawUnsafe(
            'INSERT INTO processed_event (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', durable, id);
          if (inserted === 1) await options.handle(event, tx, prepared);
          await options.flush?.(tx);
          return inserted === 1;
        }),
      );
      m.ack();
      recordConsumed(durable, fresh ? 'handled' : 'duplicate', { redelivered: m.info.redelivered, pending: m.info.pending });
    } catch (err) {
      recordConsumed(durable, 'failed', { redelivered: m.info.redelivered, pending: m.info.pending });
      log.error({ err, durable, subject: m.subject, id }, 'event handler failed; redelivering later');
      m.nak(2_000);
    }
  };

  /** Several events in one transaction: the ids not yet processed are inserted and handled, in order. */
  const handleBatch = async (batch: JsMsg[]) => {
    if (batch.length === 1 || options.idempotent) {
      for (const m of batch) await handleOne(m);
      return;
    }
    let handled: Set<JsMsg>;
    try {
      const events: Array<{ m: JsMsg; event: ReceivedEvent; prepared?: unknown }> = [];
      for (const m of batch) {
        const event = eventOf(m);
        if (!(await skipped(m, event))) events.push({ m, event });
      }
      batch = events.map((e) => e.m);
      if (!events.length) return;
      for (const e of events) e.prepared = await prepareOf(e.m, e.event);
      handled = await options.db.$transaction(async (tx) => {
        const inserted = await tx.$queryRawUnsafe<Array<{ event_id: string }>>(
          'INSERT INTO processed_event (consumer, event_id) SELECT $1, unnest($2::text[]) ON CONFLICT DO NOTHING RETURNING event_id',
          durable, [...new Set(events.map((e) => e.event.id))]);
        const fresh = new Set(inserted.map((r) => r.event_id));
        const done = new Set<JsMsg>();
        for (const { m, event, prepared } of events) {
          // A message repeated within the batch is handled once.
          if (!fresh.delete(event.id)) continue;
          await inConsumerSpan(durable, event.subject, m.headers, () => options.handle(event, tx, prepared));
          done.add(m);
        }
        await options.flush?.(tx);
        return done;
      });
    } catch (err) {
      log.warn({ err, durable, size: batch.length }, 'event batch failed; handling its events one by one');
      for (const m of batch) await handleOne(m);
      return;
    }
    for (const m of batch) {
      m.ack();
      recordConsumed(durable, handled.has(m) ? 'handled' : 'duplicate', { redelivered: m.info.redelivered, pending: m.info.pending });
    }
  };

  const batchSize = Math.max(1, options.batch ?? 1);
  const loop = batchSize === 1
    ? (async () => { for await (const m of messages) await handleOne(m); })()
    : batchedLoop(messages, batchSize, handleBatch);

  return {
    async stop() {
      messages.stop();
      await loop;
    },
  };
}

/**
 * Takes the messages that are waiting, up to `size`, while the previous batch is handled:
 * at a trickle each event goes alone (no added latency), under load batches fill up. At most
 * two batches are held, so the pull's flow control still bounds what is in hand.
 */
async function batchedLoop(messages: ConsumerMessages, size: number, handle: (batch: JsMsg[]) => Promise<void>): Promise<void> {
  const waiting: JsMsg[] = [];
  let ended = false;
  let arrived: (() => void) | undefined;
  let drained: (() => void) | undefined;
  const pump = (async () => {
    try {
      for await (const m of messages) {
        waiting.push(m);
        arrived?.();
        while (waiting.length >= size * 2) await new Promise<void>((resolve) => { drained = resolve; });
      }
    } finally {
      ended = true;
      arrived?.();
    }
  })();
  for (;;) {
    if (!waiting.length) {
      if (ended) break;
      await new Promise<void>((resolve) => { arrived = resolve; });
      arrived = undefined;
      continue;
    }
    const batch = waiting.splice(0, size);
    drained?.();
    drained = undefined;
    await handle(batch);
  }
  await pump;
}

/**
 * A plain (non-durable) subscription for caches that every replica must drop, such as the
 * gateway's credential cache: each replica sees every event, and a replica that was down
 * has an empty cache anyway.
 */
export function subscribeBroadcast(bus: EventBus, relativeSubject: string, log: Logger, handle: (payload: unknown, type: string) => void): () => void {
  const sub = bus.nc.subscribe(bus.subject(relativeSubject));
  (async () => {
    for await (const m of sub) {
      try {
        const type = m.headers?.get(EVENT_TYPE_HEADER) ?? '';
        handle(type ? decodeEvent(type, m.data) : undefined, type);
      } catch (err) {
        log.error({ err, subject: m.subject }, 'broadcast handler failed');
      }
    }
  })();
  return () => sub.unsubscribe();
}
