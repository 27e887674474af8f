// Transactional outbox (DESIGN.md §4): a state change and its event row commit together;
// this relay publishes pending rows with the row id as Nats-Msg-Id and marks them sent.
// A crash between publish and mark re-sends the row, and the stream drops the duplicate.
// Rows go out in order; a row that can never be published (too large for the server,
// refused by the stream) is moved to the dead letters (dead-letters.ts) so it cannot hold
// back every later event, with an error log and a metric for alerting.
import { randomUUID } from 'node:crypto';
import { ErrorCode, headers, NatsError } from 'nats';
import { currentTraceContext, startPublishSpan } from '../telemetry/events.js';
import type { Logger } from 'pino';
import { encodeEvent } from '@anvil/proto';
import type { EventBus } from './bus.js';
import { countParked, parkOutboxRow, watchOutboxMetrics } from './dead-letters.js';
import { boundStrings, EVENT_TARGET_MAX_BYTES, EVENT_TEXT_MAX_BYTES, TIGHTER_TEXT_LIMITS } from './event-bounds.js';
import type { TransactionalSqlClient } from './sql.js';

export const EVENT_TYPE_HEADER = 'Anvil-Event-Type';

/** Data for one `outbox_event` row; create it with the service's Prisma client inside the change's transaction. */
export interface OutboxEventRow {
  id: string;
  subject: string;
  type: string;
  payload: Uint8Array<ArrayBuffer>;
  /** The W3C traceparent of the request that made the change (telemetry/events.ts). */
  trace_context: string | null;
}

/**
 * @param subject context-relative subject, e.g. `identity.user.created`
 * @param type full protobuf message name, e.g. `anvil.identity.v1.UserCreated`
 */
export function outboxEvent(subject: string, type: string, payload: object): OutboxEventRow {
  return { id: randomUUID(), subject, type, payload: new Uint8Array(encodeBounded(type, payload)), trace_context: currentTraceContext() };
}

/**
 * The event encoded with every string at most EVENT_TEXT_MAX_BYTES long, and tighter still
 * if it would otherwise exceed EVENT_TARGET_MAX_BYTES (event-bounds.ts says why). What is
 * left after that (thousands of items in one event) the relay sets aside if NATS refuses it.
 */
export function encodeBounded(type: string, payload: object): Uint8Array {
  let bytes = encodeEvent(type, boundStrings(payload, EVENT_TEXT_MAX_BYTES).value);
  for (const limit of TIGHTER_TEXT_LIMITS) {
    if (bytes.length <= EVENT_TARGET_MAX_BYTES) break;
    bytes = encodeEvent(type, boundStrings(payload, limit).value);
  }
  return bytes;
}

interface PendingRow {
  seq: bigint;
  id: string;
  subject: string;
  type: string;
  payload: Uint8Array;
  trace_context: string | null;
}

/** Oldest first (RETURNING gives no order); `seq` may arrive as a bigint or a string. */
const bySeq = (a: PendingRow, b: PendingRow): number => {
  const [x, y] = [BigInt(a.seq), BigInt(b.seq)];
  return x < y ? -1 : x > y ? 1 : 0;
};

export interface OutboxRelay {
  /** Publish now instead of at the next poll: call after committing a change. */
  kick(): void;
  /** Stops polling after the batch in flight; unsent rows stay for the next start. */
  stop(): Promise<void>;
}

const BATCH = 100;

/**
 * Failures that say nothing about the event itself (NATS unreachable, slow or restarting,
 * the stream missing for a moment): the relay waits and tries the same row again, forever.
 */
const TRANSIENT_NATS_ERRORS: ReadonlySet<string> = new Set([
  ErrorCode.Timeout, ErrorCode.NoResponders, ErrorCode.ConnectionClosed, ErrorCode.ConnectionDraining,
  ErrorCode.Disconnect, ErrorCode.ConnectionRefused, ErrorCode.ConnectionTimeout, ErrorCode.JetStreamNotEnabled,
  ErrorCode.Cancelled,
]);

/** Times one event may fail for a reason the relay cannot classify before it is set aside. */
export const MAX_UNEXPLAINED_FAILURES = 5;

/**
 * Why `row` can never be published as it is, or undefined when it may yet go out: too large
 * for the server, refused by the stream for what it is (JetStream answers 4xx), or failing
 * MAX_UNEXPLAINED_FAILURES times in a row while the stream answers other requests.
 */
async function unpublishable(err: unknown, row: PendingRow, failures: number, bus: EventBus): Promise<string | undefined> {
  const code = err instanceof NatsError ? err.code : undefined;
  if (code === ErrorCode.MaxPayloadExceeded) {
    return `${row.payload.length} bytes is more than the NATS server accepts (max_payload ${bus.nc.info?.max_payload ?? '?'} bytes)`;
  }
  const api = err instanceof NatsError ? err.jsError() : null;
  if (api && api.code >= 400 && api.code < 500) return `refused by the stream: ${api.description} (error ${api.err_code ?? api.code})`;
  if (code !== undefined && TRANSIENT_NATS_ERRORS.has(code)) return undefined;
  if (failures < MAX_UNEXPLAINED_FAILURES) return undefined;
  const streamAnswers = await bus.jsm.streams.info(bus.stream).then(() => true, () => false);
  return streamAnswers ? `failed ${failures} times while the stream answered: ${(err as Error)?.message ?? String(err)}` : undefined;
}

export function startOutboxRelay(db: TransactionalSqlClient, bus: EventBus, log: Logger, pollMs = 1000): OutboxRelay {
  let stopped = false;
  let wake: (() => void) | undefined;
  let kicked = false;
  let lastCleanup = 0;
  // Consecutive failures of the row at the head of the queue (by event id).
  let failing: { id: string; count: number } | undefined;
  const unwatch = watchOutboxMetrics(db);

  async function publish(row: PendingRow): Promise<void> {
    const h = headers();
    h.set(EVENT_TYPE_HEADER, row.type);
    const span = startPublishSpan(row.subject, row.trace_context, h);
    try {
      await bus.nc.jetstream().publish(bus.subject(row.subject), row.payload, { msgID: row.id, headers: h });
    } finally {
      span?.end();
    }
  }

  /** Publishes up to BATCH pending rows in order; returns how many it dealt with (sent or parked). */
  async function publishBatch(): Promise<number> {
    let failure: unknown;
    const dealt = await db.$transaction(async (tx) => {
      // The rows are claimed and marked sent in one statement, inside the transaction: what is
      // not published after all is unmarked before the commit, and a crash rolls the marks
      // back (the rows go out again; the stream drops what it already has). SKIP LOCKED lets
      // replicas share the table without sending a row twice in parallel. One statement
      // fewer per batch than reading them and marking them apart: under a stream of writes a
      // batch is often one row.
      const rows = (await tx.$queryRawUnsafe<PendingRow[]>(
        `UPDATE outbox_event SET sent_at = now() WHERE seq IN (
           SELECT seq FROM outbox_event WHERE sent_at IS NULL ORDER BY seq LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
         RETURNING seq, id::text AS id, subject, type, payload, trace_context`,
      )).sort(bySeq);
      const sent: bigint[] = [];
      let parked = 0;
      for (const row of rows) {
        try {
          await publish(row);
          sent.push(row.seq);
          if (failing?.id === row.id) failing = undefined;
        } catch (err) {
          failing = failing?.id === row.id ? { id: row.id, count: failing.count + 1 } : { id: row.id, count: 1 };
          const reason = await unpublishable(err, row, failing.count, bus);
          if (!reason) {
            // Keep order: nothing after this row goes out until it does.
            failure = err;
            break;
          }
          // One event must not hold back every later one forever: set it aside, go on.
          await parkOutboxRow(tx, row.seq, reason);
          parked++;
          failing = undefined;
          countParked();
          log.error({ alert: 'outbox_dead_letter', event: row.id, subject: row.subject, type: row.type, bytes: row.payload.length, reason },
            'outbox relay set an event aside as a dead letter; later events go on (see `anvil admin events list`)');
        }
      }
      // The rows behind a failure stay for the next attempt, in order.
      const unsent = rows.slice(sent.length + parked).map((row) => row.seq.toString());
      if (unsent.length) await tx.$executeRawUnsafe(`UPDATE outbox_event SET sent_at = NULL WHERE seq = ANY($1::bigint[])`, unsent);
      return sent.length + parked;
    }, { timeout: 30_000 });
    if (failure) throw failure;
    return dealt;
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
        log.warn({ err, event: failing?.id, attempts: failing?.count }, 'outbox relay could not publish; will retry');
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
      unwatch();
    },
  };
}
