// Durable, idempotent event consumption (DESIGN.md §4). One durable pull consumer per
// (service, subject filter), shared by every replica so each event is handled once; the
// handler runs in the same transaction as the processed_event insert keyed by event id,
// so a redelivery after a crash is recognised and skipped.
import { AckPolicy, DeliverPolicy, nanos, type ConsumerMessages } from 'nats';
import type { Logger } from 'pino';
import { decodeEvent } from '@anvil/proto';
import type { EventBus } from './bus.js';
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
  handle(event: ReceivedEvent, tx: Tx): Promise<void>;
}

export interface RunningConsumer {
  /** Stops pulling and waits for the event in hand to finish. */
  stop(): Promise<void>;
}

export async function startConsumer<Tx extends SqlClient>(options: ConsumerOptions<Tx>): Promise<RunningConsumer> {
  const { bus, durable, log } = options;
  const config = {
    durable_name: durable,
    filter_subject: bus.subject(options.filter),
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(30_000),
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
  const messages: ConsumerMessages = await consumer.consume({ max_messages: 64 });
  const prefix = `${bus.namespace}.`;

  const loop = (async () => {
    for await (const m of messages) {
      const id = m.headers?.get('Nats-Msg-Id') || `${bus.stream}:${m.seq}`;
      const type = m.headers?.get(EVENT_TYPE_HEADER) ?? '';
      try {
        const event: ReceivedEvent = {
          id,
          subject: m.subject.startsWith(prefix) ? m.subject.slice(prefix.length) : m.subject,
          type,
          payload: type ? decodeEvent(type, m.data) : undefined,
        };
        const fresh = await inConsumerSpan(durable, event.subject, m.headers, () =>
          options.db.$transaction(async (tx) => {
            const inserted = await tx.$executeRawUnsafe(
              'INSERT INTO processed_event (consumer, event_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', durable, id);
            if (inserted === 1) await options.handle(event, tx);
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
    }
  })();

  return {
    async stop() {
      messages.stop();
      await loop;
    },
  };
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
