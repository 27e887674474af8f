// Runs mirror syncs (pull mirrors, and pushes to push mirrors) when they are due. Every replica ticks, but each due mirror is
// claimed by exactly one of them: the claim moves the mirror's next sync a lease ahead in
// one statement with FOR UPDATE SKIP LOCKED (store/migrations.ts), so replicas never sync
// the same mirror at once and a replica that dies mid-sync leaves the mirror due again when
// the lease runs out. A requested sync (mirror-sync) sets the mirror due now and kicks the
// local scheduler, so it starts without waiting for the next tick.
import type { Logger } from '@anvil/kit';

export interface MirrorSchedulerOptions<Job> {
  /** Claims up to `limit` due jobs, leasing each for `leaseMs`. */
  claim(now: Date, leaseMs: number, limit: number): Promise<Job[]>;
  log: Logger;
  sync(job: Job): Promise<void>;
  /** Between looks for due mirrors. */
  tickMs: number;
  /** How long a claimed sync may run before another replica may claim the mirror again. */
  leaseMs: number;
  /** Mirrors synced at once by this replica. */
  concurrency: number;
}

export class MirrorScheduler<Job> {
  private timer?: NodeJS.Timeout;
  private running = 0;
  private stopped = false;
  private pending?: Promise<void>;
  private again = false;

  constructor(private readonly options: MirrorSchedulerOptions<Job>) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.options.tickMs);
    this.timer.unref();
    this.kick();
  }

  /** Looks for due mirrors now. */
  kick(): void {
    if (this.stopped) return;
    if (this.pending) {
      this.again = true;
      return;
    }
    this.pending = this.round().catch((err: unknown) => this.options.log.warn({ err }, 'mirror scheduler round failed')).finally(() => {
      this.pending = undefined;
      if (this.again) {
        this.again = false;
        this.kick();
      }
    });
  }

  private async round(): Promise<void> {
    const free = this.options.concurrency - this.running;
    if (free <= 0) return;
    const jobs = await this.options.claim(new Date(), this.options.leaseMs, free);
    for (const job of jobs) {
      this.running++;
      void this.options.sync(job).finally(() => {
        this.running--;
      });
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.pending;
  }
}
