import { pino, type Logger } from 'pino';

export type { Logger };

/** One JSON logger per process, named after the deployable; level from ANVIL_LOG_LEVEL. */
export function createLogger(name: string): Logger {
  return pino({ name, level: process.env.ANVIL_LOG_LEVEL ?? 'info', base: { svc: name } });
}
