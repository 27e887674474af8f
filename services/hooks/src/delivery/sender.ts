// The sender pool: claims due deliveries, POSTs them through the kit's outbound guard with
// Gitea's headers, and records each attempt. At most [webhook] SENDERS requests are in
// flight per process and at most MAX_PER_HOST of them to one host, so one slow receiver
// holds a few senders while the others keep flowing; a delivery claimed while its host is
// at that limit is given back for a moment.
import { OutboundRefused, type Logger } from '@anvil/kit';
import { request, type Dispatcher } from 'undici';
import { outcomeOf, type Attempt, type RetryPolicy } from '../domain/deliveries.js';
import { deliveryContentType } from '../payloads/body.js';
import type { ClaimedDelivery, DeliveryQueue } from '../store/deliveries.js';
import { deliveryHeaders } from './headers.js';

/** Response bodies are kept up to this many characters (what a receiver said, not a download). */
const RESPONSE_BODY_KEPT = 64 * 1024;
const BUSY_HOST_DELAY_MS = 250;
const IDLE_POLL_MS = 500;

export interface SenderOptions {
  queue: DeliveryQueue;
  dispatcher: Dispatcher;
  policy: RetryPolicy;
  senders: number;
  maxPerHost: number;
  /** [webhook] DELIVER_TIMEOUT in milliseconds: the whole request, redirects included. */
  timeoutMs: number;
  log: Logger;
}

export interface SenderPool {
  /** Look for work now (deliveries were queued). */
  kick(): void;
  /** Stops claiming and waits for the requests in flight. */
  stop(): Promise<void>;
}

const hostOf = (url: string) => {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
};

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
  const perHost = new Map<string, number>();
  const inFlight = new Set<Promise<void>>();
  // Long enough for the request and recording it; a replica killed mid-send frees its rows then.
  const leaseMs = options.timeoutMs * 2 + 30_000;
  let stopped = false;
  let kicked = false;
  let wake: (() => void) | undefined;

  const kick = () => {
    kicked = true;
    wake?.();
  };

  async function send(delivery: ClaimedDelivery, host: string): Promise<void> {
    try {
      const attempt = delivery.hook.active
        ? await attemptDelivery(delivery, options.dispatcher, options.timeoutMs)
        : { requestUrl: delivery.hook.url, requestHeaders: {}, responseStatus: 0, responseHeaders: {}, responseBody: '', error: 'webhook is not active', refused: true, durationMs: 0 };
      await queue.record(delivery.id, attempt, outcomeOf(attempt, delivery.attempts + 1, options.policy));
    } catch (err) {
      log.error({ err, delivery: delivery.uuid }, 'could not record a webhook delivery attempt; its lease will run out and it is tried again');
    } finally {
      perHost.set(host, (perHost.get(host) ?? 1) - 1);
    }
  }

  async function round(): Promise<number> {
    const free = options.senders - inFlight.size;
    if (free <= 0) return 0;
    const claimed = await queue.claim(free, leaseMs);
    for (const delivery of claimed) {
      const host = hostOf(delivery.hook.url);
      if ((perHost.get(host) ?? 0) >= options.maxPerHost) {
        await queue.release(delivery.id, BUSY_HOST_DELAY_MS);
        continue;
      }
      perHost.set(host, (perHost.get(host) ?? 0) + 1);
      const running = send(delivery, host).finally(() => {
        inFlight.delete(running);
        kick();
      });
      inFlight.add(running);
    }
    return claimed.length;
  }

  const loop = (async () => {
    while (!stopped) {
      kicked = false;
      try {
        const claimed = await round();
        if (claimed > 0 && inFlight.size < options.senders) continue;
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
