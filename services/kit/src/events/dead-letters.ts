// The outbox relay's dead letters (table outbox_dead_letter, services/kit/prisma/events.prisma):
// events that can never be published as they are, set aside so the events after them flow.
// Parking, listing, reading and retrying them, and the metrics an alert watches.
import { Counter, Gauge, register } from 'prom-client';
import type { SqlClient, TransactionalSqlClient } from './sql.js';

export interface DeadLetterRow {
  id: string;
  subject: string;
  type: string;
  payload_bytes: number;
  created_at: Date;
  parked_at: Date;
  reason: string;
}

/** Moves the outbox row `seq` into the dead letters, in the relay's transaction. */
export async function parkOutboxRow(tx: SqlClient, seq: bigint, reason: string): Promise<void> {
  await tx.$executeRawUnsafe(
    `INSERT INTO outbox_dead_letter (id, subject, type, payload, created_at, reason)
     SELECT id, subject, type, payload, created_at, $2 FROM outbox_event WHERE seq = $1::bigint
     ON CONFLICT (id) DO UPDATE SET reason = EXCLUDED.reason, payload = EXCLUDED.payload, parked_at = now()`,
    seq.toString(), reason.slice(0, 2_000),
  );
  await tx.$executeRawUnsafe('DELETE FROM outbox_event WHERE seq = $1::bigint', seq.toString());
}

const COLUMNS = `id::text AS id, subject, type, octet_length(payload)::int AS payload_bytes, created_at, parked_at, reason`;

/** The oldest dead letters first, at most `limit`, and how many there are. */
export async function listDeadLetters(db: SqlClient, limit: number): Promise<{ rows: DeadLetterRow[]; total: number }> {
  const rows = await db.$queryRawUnsafe<DeadLetterRow[]>(
    `SELECT ${COLUMNS} FROM outbox_dead_letter ORDER BY parked_at, id LIMIT $1`, Math.max(1, Math.min(limit, 1_000)));
  return { rows, total: await countDeadLetters(db) };
}

export async function getDeadLetter(db: SqlClient, id: string): Promise<(DeadLetterRow & { payload: Uint8Array }) | undefined> {
  if (!UUID.test(id)) return undefined;
  const rows = await db.$queryRawUnsafe<Array<DeadLetterRow & { payload: Uint8Array }>>(
    `SELECT ${COLUMNS}, payload FROM outbox_dead_letter WHERE id = $1::uuid`, id);
  return rows[0];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Puts dead letters back at the end of the outbox under the same event id (consumers that
 * saw it skip it) and returns the ids moved. `ids` undefined means all of them.
 */
export async function retryDeadLetters(db: TransactionalSqlClient, ids: string[] | undefined): Promise<string[]> {
  const wanted = ids?.filter((id) => UUID.test(id));
  if (wanted && wanted.length === 0) return [];
  return db.$transaction(async (tx) => {
    const rows = await tx.$queryRawUnsafe<Array<{ id: string }>>(
      `WITH moved AS (
         DELETE FROM outbox_dead_letter WHERE ${wanted ? 'id = ANY($1::uuid[])' : 'true'}
         RETURNING id, subject, type, payload, created_at, parked_at)
       INSERT INTO outbox_event (id, subject, type, payload, created_at)
       SELECT id, subject, type, payload, created_at FROM moved ORDER BY parked_at, id
       ON CONFLICT (id) DO NOTHING
       RETURNING id::text AS id`,
      ...(wanted ? [wanted] : []),
    );
    return rows.map((r) => r.id);
  });
}

async function countDeadLetters(db: SqlClient): Promise<number> {
  const [row] = await db.$queryRawUnsafe<Array<{ n: number }>>('SELECT count(*)::int AS n FROM outbox_dead_letter');
  return row.n;
}

// Metrics read when Prometheus scrapes (ANVIL_METRICS_ADDR). A process normally runs one
// relay; the set lets tests run several, and a stopped relay takes its database out.
const watched = new Set<SqlClient>();

async function sumOver(query: string): Promise<number> {
  let total = 0;
  for (const db of watched) {
    const [row] = await db.$queryRawUnsafe<Array<{ n: number | null }>>(query).catch(() => [{ n: 0 }]);
    total += Number(row?.n ?? 0);
  }
  return total;
}

function ensureGauges(): void {
  if (register.getSingleMetric('anvil_outbox_dead_letters')) return;
  new Counter({
    name: 'anvil_outbox_events_parked_total',
    help: 'Events the outbox relay has set aside as dead letters since the process started',
  });
  // Alert on > 0: an event was set aside and its consumers never saw it.
  new Gauge({
    name: 'anvil_outbox_dead_letters',
    help: 'Events the outbox relay set aside because they could not be published (see `anvil admin events list`)',
    async collect() {
      this.set(await sumOver('SELECT count(*)::int AS n FROM outbox_dead_letter'));
    },
  });
  new Gauge({
    name: 'anvil_outbox_pending_events',
    help: 'Events written to the outbox and not yet published (the backlog)',
    async collect() {
      this.set(await sumOver('SELECT count(*)::int AS n FROM outbox_event WHERE sent_at IS NULL'));
    },
  });
  // Alert when it keeps growing: the relay is stuck or NATS is unreachable.
  new Gauge({
    name: 'anvil_outbox_oldest_pending_seconds',
    help: 'Age of the oldest event waiting in the outbox (0 when none waits)',
    async collect() {
      this.set(await sumOver(`SELECT COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS n
                                FROM outbox_event WHERE sent_at IS NULL`));
    },
  });
}

/** Counts one parked event in anvil_outbox_events_parked_total. */
export function countParked(): void {
  ensureGauges();
  (register.getSingleMetric('anvil_outbox_events_parked_total') as Counter).inc();
}

/** Reports `db`'s outbox in the process's metrics until the returned function is called. */
export function watchOutboxMetrics(db: SqlClient): () => void {
  ensureGauges();
  watched.add(db);
  return () => watched.delete(db);
}
