// The one bound on git processes: reads run at most `perCaller` for any one caller and
// `total` for the whole service; the rest wait their turn in order. A process spawn costs
// ~11 ms of CPU and its run more, so one caller sending hundreds of expensive requests would
// otherwise take every core and every slot from everyone else, and a burst of reads would
// fill the machine with git processes while a writer waits for CPU. Writes keep their own
// budget: git run in a repository's write turn (domain/write-turn.ts) never waits behind reads. The
// caller is the gRPC call's (kit's currentCaller); work outside a call counts as one caller.
import { currentCaller } from '@anvil/kit';
import { currentWriter } from '../domain/write-turn.js';

export interface SlotLimits {
  perCaller: number;
  total: number;
}

interface Waiter {
  key: string;
  start: () => void;
}

export class ProcessSlots {
  private running = 0;
  private readonly byKey = new Map<string, number>();
  private readonly queue: Waiter[] = [];

  constructor(private readonly limits: SlotLimits) {}

  /** Runs `work` once a slot for `key` is free (at once in a write turn); the slot is released when it settles. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    if (currentWriter() !== undefined) return work();
    await this.acquire(key);
    try {
      return await work();
    } finally {
      this.release(key);
    }
  }

  private canStart(key: string): boolean {
    return this.running < this.limits.total && (this.byKey.get(key) ?? 0) < this.limits.perCaller;
  }

  private take(key: string): void {
    this.running++;
    this.byKey.set(key, (this.byKey.get(key) ?? 0) + 1);
  }

  private acquire(key: string): Promise<void> {
    // Order is kept per caller: a caller with work queued waits behind it; others may pass.
    if (this.canStart(key) && !this.queue.some((waiter) => waiter.key === key)) {
      this.take(key);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push({ key, start: resolve }));
  }

  private release(key: string): void {
    this.running--;
    const left = (this.byKey.get(key) ?? 1) - 1;
    if (left > 0) this.byKey.set(key, left);
    else this.byKey.delete(key);
    // The first waiter whose caller has room goes next: a caller at its limit never holds
    // up the others queued behind it.
    for (let i = 0; i < this.queue.length && this.running < this.limits.total; i++) {
      const waiter = this.queue[i]!;
      if (!this.canStart(waiter.key)) continue;
      this.queue.splice(i--, 1);
      this.take(waiter.key);
      waiter.start();
    }
  }
}

/** The slot key of the current gRPC caller: a user id, or one shared key for work outside a call. */
export function callerKey(): string {
  const caller = currentCaller();
  return caller ? `user:${caller.userId}` : 'service';
}
