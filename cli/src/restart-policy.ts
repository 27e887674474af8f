// When the supervisor restarts a deployable that died on its own, and when it gives up.
// A crash is usually a passing fault (a lost database connection at the wrong moment, an
// out-of-memory kill): restart after a short delay that doubles with each crash, so a
// service failing at start does not spin. A service that keeps crashing is a crash loop
// (bad config, a broken migration, a bug on start): then the supervisor stops everything
// and says why, rather than looking half alive for ever.

export interface RestartPolicyOptions {
  /** Crashes of one deployable within windowMs that make a crash loop. */
  maxCrashes: number;
  windowMs: number;
  /** Delay before the first restart; doubled for each further crash within the window. */
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicyOptions = { maxCrashes: 5, windowMs: 60_000, initialDelayMs: 500, maxDelayMs: 10_000 };

export type RestartDecision =
  | { restart: true; delayMs: number; crashes: number }
  | { restart: false; crashes: number };

export class RestartPolicy {
  private readonly crashes = new Map<string, number[]>();

  constructor(readonly options: RestartPolicyOptions = DEFAULT_RESTART_POLICY) {}

  /** Records a crash of `name` at `now` and says what to do about it. */
  onCrash(name: string, now: number): RestartDecision {
    const recent = (this.crashes.get(name) ?? []).filter((at) => now - at < this.options.windowMs);
    recent.push(now);
    this.crashes.set(name, recent);
    const count = recent.length;
    if (count >= this.options.maxCrashes) return { restart: false, crashes: count };
    const delayMs = Math.min(this.options.initialDelayMs * 2 ** (count - 1), this.options.maxDelayMs);
    return { restart: true, delayMs, crashes: count };
  }
}
