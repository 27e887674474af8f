// Graceful shutdown: on SIGTERM or SIGINT, run the registered steps in reverse order of
// registration (gRPC stops taking calls first, the database closes last), each bounded,
// then exit. A second signal exits at once.
import type { Logger } from 'pino';

type Step = { name: string; run: () => Promise<void> };

export class Shutdown {
  private steps: Step[] = [];
  private started = false;

  constructor(private readonly log: Logger, private readonly stepTimeoutMs = 15_000) {}

  /** Registers work to undo at shutdown; later registrations run first. */
  add(name: string, run: () => Promise<void>): void {
    this.steps.push({ name, run });
  }

  listen(): void {
    const onSignal = (signal: NodeJS.Signals) => {
      if (this.started) process.exit(1);
      this.log.info({ signal }, 'shutting down');
      this.run().then(() => process.exit(0), () => process.exit(1));
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }

  async run(): Promise<void> {
    this.started = true;
    for (const step of [...this.steps].reverse()) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          this.log.warn({ step: step.name }, 'shutdown step timed out');
          resolve();
        }, this.stepTimeoutMs);
      });
      await Promise.race([step.run().catch((err) => this.log.error({ err, step: step.name }, 'shutdown step failed')), timeout]);
      clearTimeout(timer);
    }
  }
}
