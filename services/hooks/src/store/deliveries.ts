// Deliveries in PostgreSQL (table `hook_delivery`). Senders in every replica claim due rows
// with FOR UPDATE SKIP LOCKED and a lease (`claimed_until`): two replicas never send one row
// at the same time, and a replica killed mid-send leaves a lease that runs out, after which
// another replica sends the row again (receivers recognise a repeat by X-Gitea-Delivery).
import { randomUUID } from 'node:crypto';
import type { SecretBox } from '@anvil/kit';
import type { Attempt, Delivery, DeliveryStatus, NewDelivery, Outcome } from '../domain/deliveries.js';
import type { HookEvent } from '../domain/hook-events.js';
import type { HookContentType, HookType } from '../domain/hook-types.js';
import type { HookDelivery as DeliveryRow } from './generated/client.js';
import type { HooksDb, HooksTx } from './db.js';
import { toWebhook } from './webhooks.js';
import type { Webhook } from '../domain/webhooks.js';

/** The host[:port] of a hook's URL in SQL, as hostOfUrl gives it in JavaScript. */
const HOST_OF_URL = `lower(substring(w.url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^@/?#]*@)?([^/?#]+)'))`;

/** The target host[:port] of a URL, lower case (what the per-host limit counts by). */
export function hostOfUrl(url: string): string {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/?#]+)/.exec(url)?.[1]?.toLowerCase() ?? '';
}

/** Raised at commit by every transaction that queues deliveries: senders wake up. */
export const DELIVERY_CHANNEL = 'hook_delivery_queued';

export function toDelivery(row: DeliveryRow): Delivery {
  return {
    id: Number(row.id), uuid: row.uuid, hookId: Number(row.hook_id), eventId: row.event_id, event: row.event as HookEvent,
    payload: row.payload, status: row.status as DeliveryStatus, attempts: row.attempts, nextAttemptAt: row.next_attempt_at,
    requestUrl: row.request_url, requestHeaders: row.request_headers as Record<string, string>, responseStatus: row.response_status,
    responseHeaders: row.response_headers as Record<string, string>, responseBody: row.response_body, error: row.error,
    durationMs: row.duration_ms, deliveredAt: row.delivered_at, createdAt: row.created_at,
  };
}

/** A claimed delivery with what sending it needs from its hook. */
export interface ClaimedDelivery {
  id: number;
  uuid: string;
  event: HookEvent;
  payload: string;
  attempts: number;
  hook: Pick<Webhook, 'id' | 'type' | 'url' | 'contentType' | 'secret' | 'authorizationHeader' | 'active'>;
}

interface ClaimedRow {
  id: bigint;
  uuid: string;
  event: string;
  payload: string;
  attempts: number;
  hook_id: bigint;
  type: string;
  url: string;
  content_type: string;
  secret: string;
  authorization_header: string;
  is_active: boolean;
}

/** The active hooks an event in `repo` fires: the repository's, its owner's, and the site's system hooks. */
export async function hooksFor(tx: HooksTx | HooksDb, repo: { id: number; ownerId: number }, event: HookEvent): Promise<Webhook[]> {
  const rows = await tx.webhook.findMany({
    where: {
      is_active: true,
      events: { has: event },
      OR: [
        { repo_id: BigInt(repo.id) },
        { repo_id: 0n, owner_id: BigInt(repo.ownerId) },
        { repo_id: 0n, owner_id: 0n, is_system_webhook: true },
      ],
    },
    orderBy: { id: 'asc' },
  });
  // Matching needs no secrets: they stay sealed in the table.
  return rows.map((row) => toWebhook(row));
}

/** Writes deliveries inside the caller's transaction; senders hear of them at commit. */
export async function queueDeliveries(tx: HooksTx | HooksDb, deliveries: NewDelivery[]): Promise<void> {
  if (!deliveries.length) return;
  // One statement for any number of rows (a consumer batch writes hundreds); a row already
  // there for its hook, event and kind is left as it is.
  await tx.$executeRawUnsafe(
    `WITH queued AS (
       INSERT INTO hook_delivery (uuid, hook_id, event_id, event, payload)
       SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::text[], $4::text[], $5::text[])
       ON CONFLICT DO NOTHING RETURNING 1)
     SELECT pg_notify('${DELIVERY_CHANNEL}', '') WHERE EXISTS (SELECT 1 FROM queued)`,
    deliveries.map(() => randomUUID()), deliveries.map((d) => BigInt(d.hookId)), deliveries.map((d) => d.eventId),
    deliveries.map((d) => d.event), deliveries.map((d) => d.payload));
}

export interface DeliveryQueue {
  /**
   * Claims up to `limit` due deliveries for `leaseMs`: at most `perHost` for one target host,
   * none for `busyHosts` (host[:port], lower case, as hostOfUrl gives it).
   */
  claim(limit: number, leaseMs: number, busyHosts: string[], perHost: number): Promise<ClaimedDelivery[]>;
  /** Records an attempt and what becomes of the delivery. */
  record(id: number, attempt: Attempt, outcome: Outcome): Promise<void>;
  /** When the next pending delivery falls due, if any. */
  nextDue(): Promise<Date | undefined>;
}

/** `box` opens the hooks' sealed secrets and Authorization headers for sending. */
export function deliveryQueue(db: HooksDb, box: SecretBox): DeliveryQueue {
  return {
    async claim(limit, leaseMs, busyHosts, perHost) {
      // Due rows, at most `perHost` per target host and none for hosts already at their
      // limit, oldest first. The window cannot take row locks, so it only picks candidates;
      // the locking SELECT skips those another replica holds.
      const rows = await db.$queryRawUnsafe<ClaimedRow[]>(`
        WITH candidates AS (
          SELECT id FROM (
            SELECT d.id, d.next_attempt_at,
                   row_number() OVER (PARTITION BY ${HOST_OF_URL} ORDER BY d.next_attempt_at, d.id) AS n
              FROM hook_delivery d JOIN webhook w ON w.id = d.hook_id
             WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND (d.claimed_until IS NULL OR d.claimed_until < now())
               AND NOT (${HOST_OF_URL} = ANY($3::text[]))
          ) ranked WHERE n <= $4 ORDER BY next_attempt_at, id LIMIT $1),
        -- The conditions again: a row another replica claimed after this statement's snapshot
        -- is re-checked here at its latest version (READ COMMITTED) and left out.
        locked AS (
          SELECT id FROM hook_delivery
           WHERE id IN (SELECT id FROM candidates)
             AND status = 'pending' AND next_attempt_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
           FOR UPDATE SKIP LOCKED)
        UPDATE hook_delivery d SET claimed_until = now() + make_interval(secs => $2::double precision / 1000)
          FROM webhook w
         WHERE w.id = d.hook_id AND d.id IN (SELECT id FROM locked)
        RETURNING d.id, d.uuid::text AS uuid, d.event, d.payload, d.attempts, d.hook_id, w.type, w.url, w.content_type,
                  w.secret, w.authorization_header, w.is_active`, limit, leaseMs, busyHosts, perHost);
      return rows.map((r) => ({
        id: Number(r.id), uuid: r.uuid, event: r.event as HookEvent, payload: r.payload, attempts: r.attempts,
        hook: {
          id: Number(r.hook_id), type: r.type as HookType, url: r.url, contentType: r.content_type as HookContentType,
          secret: box.open(r.secret), authorizationHeader: box.open(r.authorization_header), active: r.is_active,
        },
      }));
    },

    async record(id, attempt, outcome) {
      // updateMany: a delivery whose hook was deleted meanwhile is simply gone.
      await db.hookDelivery.updateMany({
        where: { id: BigInt(id) },
        data: {
          status: outcome.status, attempts: { increment: 1 }, claimed_until: null,
          next_attempt_at: outcome.status === 'pending' ? outcome.retryAt : undefined,
          request_url: attempt.requestUrl, request_headers: attempt.requestHeaders, response_status: attempt.responseStatus,
          response_headers: attempt.responseHeaders, response_body: attempt.responseBody, error: attempt.error,
          duration_ms: attempt.durationMs, delivered_at: new Date(),
        },
      });
    },

    async nextDue() {
      const row = await db.hookDelivery.findFirst({ where: { status: 'pending' }, orderBy: { next_attempt_at: 'asc' }, select: { next_attempt_at: true } });
      return row?.next_attempt_at;
    },
  };
}

export function deliveryHistory(db: HooksDb): import('../domain/delivery-history.js').DeliveryHistory {
  return {
    async list(hookId, page) {
      const where = { hook_id: BigInt(hookId) };
      const [rows, total] = await Promise.all([
        db.hookDelivery.findMany({ where, orderBy: { id: 'desc' }, skip: page.offset, take: page.limit }),
        db.hookDelivery.count({ where }),
      ]);
      return { items: rows.map(toDelivery), total };
    },
    async find(hookId, uuid) {
      const row = await db.hookDelivery.findFirst({ where: { hook_id: BigInt(hookId), uuid } });
      return row ? toDelivery(row) : undefined;
    },
    async redeliver(hookId, uuid) {
      const rows = await db.$transaction(async (tx) => {
        const { count } = await tx.hookDelivery.updateMany({
          where: { hook_id: BigInt(hookId), uuid, status: { not: 'pending' } },
          data: { status: 'pending', next_attempt_at: new Date(), claimed_until: null },
        });
        if (count) await tx.$executeRawUnsafe(`SELECT pg_notify('${DELIVERY_CHANNEL}', '')`);
        return tx.hookDelivery.findMany({ where: { hook_id: BigInt(hookId), uuid } });
      });
      return rows[0] ? toDelivery(rows[0]) : undefined;
    },
  };
}

/**
 * Drops finished deliveries older than `maxAgeDays` and, per hook, all but the latest
 * `maxPerHook` ([webhook] DELIVERY_MAX_AGE_DAYS / DELIVERY_MAX_PER_HOOK; 0 keeps all).
 * Pending deliveries are never dropped.
 */
export async function pruneDeliveries(db: HooksDb, maxAgeDays: number, maxPerHook: number): Promise<number> {
  let removed = 0;
  if (maxAgeDays > 0) {
    removed += await db.$executeRawUnsafe(
      `DELETE FROM hook_delivery WHERE status <> 'pending' AND created_at < now() - make_interval(days => $1)`, maxAgeDays);
  }
  if (maxPerHook > 0) {
    removed += await db.$executeRawUnsafe(`
      DELETE FROM hook_delivery WHERE id IN (
        SELECT id FROM (SELECT id, status, row_number() OVER (PARTITION BY hook_id ORDER BY id DESC) AS n FROM hook_delivery) ranked
         WHERE n > $1 AND status <> 'pending')`, maxPerHook);
  }
  return removed;
}
