// Deliveries (Gitea's hook_task, plus what Gitea lacks: automatic retries). A delivery is
// written when its event is consumed, then sent by the sender pool: a 2xx is delivered; a
// timeout, a connection error or a 5xx is tried again after an exponentially growing wait
// with jitter, up to [webhook] MAX_ATTEMPTS; a 4xx or a refused target fails at once.
import type { HookEvent } from './hook-events.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  id: number;
  uuid: string;
  hookId: number;
  eventId: string;
  event: HookEvent;
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date;
  requestUrl: string;
  requestHeaders: Record<string, string>;
  responseStatus: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  error: string;
  durationMs: number;
  deliveredAt: Date | null;
  createdAt: Date;
}

export interface NewDelivery {
  hookId: number;
  eventId: string;
  event: HookEvent;
  payload: string;
}

/** What one attempt sent and got back. */
export interface Attempt {
  requestUrl: string;
  requestHeaders: Record<string, string>;
  responseStatus: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  /** Set when there was no response: timeout, connection error, refused target. */
  error: string;
  /** The target was refused by the allow list: trying again cannot help. */
  refused: boolean;
  durationMs: number;
}

export type Outcome = { status: 'delivered' } | { status: 'failed' } | { status: 'pending'; retryAt: Date };

export interface RetryPolicy {
  maxAttempts: number;
  backoffMs: number;
}

/** Worth another try: no response at all (timeout, reset, refused connection) or a 5xx. */
export function isRetryable(attempt: Attempt): boolean {
  if (attempt.refused) return false;
  return attempt.responseStatus === 0 || attempt.responseStatus >= 500;
}

/**
 * The wait before attempt `attempts + 1`: backoff × 2^(attempts−1), "equal jitter" (half
 * fixed, half random) so replicas retrying a recovering receiver do not arrive together.
 */
export function retryDelayMs(attempts: number, backoffMs: number, random: () => number = Math.random): number {
  const ceiling = backoffMs * 2 ** Math.max(0, attempts - 1);
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** What becomes of a delivery after its `attempts`-th attempt. */
export function outcomeOf(attempt: Attempt, attempts: number, policy: RetryPolicy, now = new Date(), random?: () => number): Outcome {
  if (attempt.responseStatus >= 200 && attempt.responseStatus < 300 && !attempt.error) return { status: 'delivered' };
  if (!isRetryable(attempt) || attempts >= policy.maxAttempts) return { status: 'failed' };
  return { status: 'pending', retryAt: new Date(now.getTime() + retryDelayMs(attempts, policy.backoffMs, random)) };
}
