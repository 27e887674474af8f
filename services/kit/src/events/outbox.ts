// Transactional outbox (DESIGN.md §4): a state change and its event row commit together;
// this relay publishes pending rows with the row id as Nats-Msg-Id and marks them sent.
// A crash between publish and mark re-sends the row, and the stream drops the duplicate.
import { randomUUID } from 'node:crypto';
import { headers } from 'nats';
import type { Logger } from 'pino';
import { encodeEvent } from '@anvil/proto';
import type { EventBus } from './bus.js';
import type { TransactionalSqlClient } from './sql.js';

export const EVENT_TYPE_HEADER = 'Anvil-Event-Type';

/** Data for one `outbox_event` row; create it with the service's Prisma client inside the change's transaction. */
export interface OutboxEventRow {
  id: string;
  subject: string;
  type: string;
  payload: Uint8Array<ArrayBuffer>;
}

/**
 * @param subject context-relative subject, e.g. `identity.user.created`
 * @param type full protobuf message name, e.g. `anvil.identity.v1.UserCreated`
 */
export function outboxEvent(subject: string, type: string, payload: object): OutboxEventRow {
  const bytes = encodeEvent(type, payload);
  return { id: randomUUID(), subject, type, payload: new Uint8Array(bytes) };
}

interface PendingRow {
  seq: bigint;
  id: string;
  subject: string;
  type: string;
  payload: Uint8Array;
}

export interface OutboxRelay {
  /** Publish now instead of at the next poll: call after committing a change. */
  kick(): void;
  /** Stops polling after the batch in flight; unsent rows stay for the next start. */
  stop(): Promise<void>;
}

const BATCH = 100;

export function startOutboxRelay(db: TransactionalSqlClient, bus: EventBus, log: Logger, pollMs = 1000): OutboxRelay {
  let stopped = false;
  let wake: (() => void) | undefined;
  let kicked = false;
  let lastCleanup = 0;

  async function publishBatch(): Promise<number> {
    return db.$transaction(async (tx) => {
      // SKIP LOCKED lets replicas share the table without sending a row twice in parallel.
      const rows = await tx.$queryRawUnsafe<PendingRow[]>(
        `SELECT seq, id::text AS id, subject, type, payload FROM outbox_event
          WHERE sent_at IS NULL ORDER BY seq LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`,
      );
      for (const row of rows) {
        const h = headers();
        h.set(EVENT_TYPE_HEADER, row.type);
        await bus.nc.jetstream().publish(bus.subject(row.subject), row.payload, { msgID: row.id, headers: h });
      }
      if (rows.length) {
        await tx.$executeRawUnsafe(`UPDATE outbox_event SET sent_at = now() WHERE seq = ANY($1::bigint[])`, rows.map((r) => r.seq.toString()));
      }
      return rows.length;
    }, { timeout: 30_000 });
  }

  async function cleanup(): Promise<void> {
    // Sent rows are kept a day for inspection, then dropped so the table stays small.
    if (Date.now() - lastCleanup < 10 * 60_000) return;
    lastCleanup = Date.now();
    await db.$executeRawUnsafe(`DELETE FROM outbox_event WHERE sent_at < now() - interval '1 day'`);
  }

  const loop = (async () => {
    while (!stopped) {
      try {
        while (!stopped && (await publishBatch()) === BATCH);
        await cleanup();
      } catch (err) {
        log.warn({ err }, 'outbox relay could not publish; will retry');
      }
      if (stopped) break;
      if (!kicked) await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, pollMs).unref();
      });
      kicked = false;
      wake = undefined;
    }
  })();

  return {
    kick() {
      kicked = true;
      wake?.();
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
