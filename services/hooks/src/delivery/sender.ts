// The sender pool: claims due deliveries, POSTs them through the kit's outbound guard with
// Gitea's headers, and records each attempt. At most [webhook] SENDERS requests are in
// flight per process and at most MAX_PER_HOST of them to one host, so one slow receiver
// holds a few senders while the others keep flowing: the claim leaves out hosts that hold
// their share, and takes at most that share per host.
import { OutboundRefused, recordWebhookDelivery, type Logger } from '@anvil/kit';
import { request, type Dispatcher } from 'undici';
import { outcomeOf, type Attempt, type RetryPolicy } from '../domain/deliveries.js';
import { deliveryContentType } from '../payloads/body.js';
import { hostOfUrl, type ClaimedDelivery, type DeliveryQueue } from '../store/deliveries.js';
import { deliveryHeaders } from './headers.js';

/** Response bodies are kept up to this many characters (what a receiver said, not a download). */
const RESPONSE_BODY_KEPT = 64 * 1024;
const IDLE_POLL_MS = 500;
/** Rounds of a host's deliveries claimed ahead of its free slots. */
const PREFETCH = 4;

export interface SenderOptions {
  queue: DeliveryQueue;
  dispatcher: Dispatcher;
  policy: RetryPolicy;
  senders: number;
  maxPerHost: number;
  /** [webhook] DELIVER_TIMEOUT in milliseconds: the whole request, redirects included. */
  timeoutMs: number;
  /** How long a claim holds a delivery (default: long enough for a slow host's turn and the request). */
  leaseMs?: number;
  log: Logger;
}

export interface SenderPool {
  /** Look for work now (deliveries were queued). */
  kick(): void;
  /** Stops claiming and waits for the requests in flight. */
  stop(): Promise<void>;
}

function refusedBy(err: unknown): boolean {
  for (let e = err as { cause?: unknown } | undefined; e; e = e.cause as { cause?: unknown } | undefined) {
    if (e instanceof OutboundRefused || (e as { code?: string }).code === 'ANVIL_OUTBOUND_REFUSED') return true;
  }
  return false;
}

function describe(err: unknown): string {
  const parts: string[] = [];
  for (let e = err as { message?: string; cause?: unknown } | undefined; e && parts.length < 3; e = e.cause as typeof e) {
    if (e.message) parts.push(e.message);
  }
  return parts.join(': ') || String(err);
}

/** One POST of a delivery; never throws. */
export async function attemptDelivery(delivery: ClaimedDelivery, dispatcher: Dispatcher, timeoutMs: number): Promise<Attempt> {
  const { hook } = delivery;
  const body = Buffer.from(delivery.payload);
  const headers = deliveryHeaders({ uuid: delivery.uuid, event: delivery.event, secret: hook.secret, body, contentType: deliveryContentType(hook) });
  // Recorded without the credential, as Gitea masks it.
  const recorded = { ...headers, ...(hook.authorizationHeader ? { authorization: '******' } : {}) };
  if (hook.authorizationHeader) headers.authorization = hook.authorizationHeader;
  const started = performance.now();
  const attempt: Attempt = {
    requestUrl: hook.url, requestHeaders: recorded, responseStatus: 0, responseHeaders: {}, responseBody: '', error: '', refused: false, durationMs: 0,
  };
  try {
    const res = await request(hook.url, { method: 'POST', headers, body, dispatcher, signal: AbortSignal.timeout(timeoutMs) });
    attempt.responseStatus = res.statusCode;
    attempt.responseHeaders = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]));
    attempt.responseBody = (await res.body.text()).slice(0, RESPONSE_BODY_KEPT);
  } catch (err) {
    attempt.responseStatus = 0;
    attempt.refused = refusedBy(err);
    attempt.error = describe(err);
  }
  attempt.durationMs = Math.round(performance.now() - started);
  return attempt;
}

export function startSenders(options: SenderOptions): SenderPool {
  const { queue, log } = options;
  /** Per host: deliveries claimed and waiting for a free slot of that host, and those in flight. */
  const waiting = new Map<string, ClaimedDelivery[]>();
  const sending = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  let held = 0;
  // Each host may have PREFETCH rounds of its deliveries claimed ahead: a claim (a query over
  // the pending rows) then serves several deliveries instead of one per freed slot. Waiting
  // rows hold no sender; at most `senders` requests are in flight, `maxPerHost` per host.
  const perHostHeld = options.maxPerHost * PREFETCH;
  // Long enough for the wait behind the host's other deliveries (PREFETCH rounds of at most
  // the timeout), the request and recording it; a replica killed mid-send frees its rows then.
  const leaseMs = options.leaseMs ?? options.timeoutMs * (PREFETCH + 2) + 30_000;
  let stopped = false;
  let kicked = false;
  let wake: (() => void) | undefined;

  const kick = () => {
    kicked = true;
    wake?.();
  };

  /** Sends one delivery; `answered` frees its host's slot once the receiver answered, before the attempt is recorded. */
  async function send(delivery: ClaimedDelivery, answered: () => void): Promise<void> {
    try {
      let attempt: Attempt;
      try {
        attempt = delivery.hook.active
          ? await attemptDelivery(delivery, options.dispatcher, options.timeoutMs)
          : { requestUrl: delivery.hook.url, requestHeaders: {}, responseStatus: 0, responseHeaders: {}, responseBody: '', error: 'webhook is not active', refused: true, durationMs: 0 };
      } finally {
        // The per-host limit counts requests to the host; recording is our database's work.
        answered();
      }
      const outcome = outcomeOf(attempt, delivery.attempts + 1, options.policy);
      await queue.record(delivery.id, attempt, outcome);
      recordWebhookDelivery(outcome.status);
    } catch (err) {
      log.error({ err, delivery: delivery.uuid }, 'could not record a webhook delivery attempt; its lease will run out and it is tried again');
    }
  }

  /** Starts what the host's limit and the pool's allow of the host's waiting deliveries. */
  function pump(host: string): void {
    const list = waiting.get(host);
    while (list?.length && (sending.get(host) ?? 0) < options.maxPerHost && inFlight.size < options.senders && !stopped) {
      const delivery = list.shift()!;
      sending.set(host, (sending.get(host) ?? 0) + 1);
      let released = false;
      const releaseHost = () => {
        if (released) return;
        released = true;
        sending.set(host, sending.get(host)! - 1);
        pump(host);
      };
      const running = send(delivery, releaseHost).finally(() => {
        inFlight.delete(running);
        held--;
        releaseHost();
        // A freed sender goes to any host with deliveries waiting.
        for (const other of waiting.keys()) pump(other);
        // Claim more only once this host has run out of what it holds: a claim is a query
        // over every pending delivery, too dear to run after each one sent. New deliveries
        // and due retries wake the loop on their own (notification, idle poll).
        if (!waiting.get(host)?.length) kick();
      });
      inFlight.add(running);
    }
    if (list && !list.length) waiting.delete(host);
  }

  async function round(): Promise<number> {
    const free = options.senders * PREFETCH - held;
    if (free <= 0) return 0;
    // Hosts holding their share already are left out of the claim, so a slow receiver's
    // backlog stays in the table instead of filling this pool.
    const busy = [...new Set([...sending.keys(), ...waiting.keys()])]
      .filter((host) => (sending.get(host) ?? 0) + (waiting.get(host)?.length ?? 0) >= perHostHeld);
    const claimed = await queue.claim(free, leaseMs, busy, perHostHeld);
    for (const delivery of claimed) {
      const host = hostOfUrl(delivery.hook.url);
      held++;
      const list = waiting.get(host) ?? [];
      list.push(delivery);
      waiting.set(host, list);
    }
    for (const host of new Set(claimed.map((d) => hostOfUrl(d.hook.url)))) pump(host);
    return claimed.length;
  }

  const loop = (async () => {
    while (!stopped) {
      kicked = false;
      try {
        const claimed = await round();
        if (claimed > 0 && held < options.senders * PREFETCH) continue;
      } catch (err) {
        log.warn({ err }, 'could not claim webhook deliveries; will retry');
      }
      if (stopped) break;
      if (!kicked) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, IDLE_POLL_MS).unref();
        });
      }
      wake = undefined;
    }
  })();

  return {
    kick,
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      await Promise.allSettled([...inFlight]);
    },
  };
}
