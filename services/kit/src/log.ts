import { pino, type Logger } from 'pino';
import { currentTraceId } from './telemetry/tracing.js';

export type { Logger };

/** One JSON logger per process, named after the deployable; level from ANVIL_LOG_LEVEL. */
export function createLogger(name: string): Logger {
  return pino({
    name,
    level: process.env.ANVIL_LOG_LEVEL ?? 'info',
    base: { svc: name },
    // Every line written inside a traced request carries its trace id.
    mixin: () => {
      const traceId = currentTraceId();
      return traceId ? { trace_id: traceId } : {};
    },
  });
}
