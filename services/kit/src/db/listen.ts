// PostgreSQL notifications on one dedicated connection (a pooled one could be handed back
// and lose its LISTENs). When the connection drops it reconnects with backoff, and on every
// (re)connect each handler runs once: what was notified meanwhile went unheard. Written here
// rather than taken from a package (pg-listen) because the job is a few LISTENs and a
// reconnect loop on the `pg` client the services already use.
import pg from 'pg';
import type { Logger } from '../log.js';

const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5_000;

export interface NotificationListener {
  stop(): Promise<void>;
}

/**
 * Called with a notification's payload, or with undefined on every (re)connect: whatever
 * was notified meanwhile went unheard, so the handler must assume anything changed.
 */
export type NotificationHandler = (payload: string | undefined) => void;

/**
 * LISTENs on every channel of `handlers` and calls the channel's handler per notification.
 * `what` names what is listened for, in the log line a lost connection writes.
 */
export function listenForNotifications(databaseUrl: string, handlers: Record<string, NotificationHandler>, log: Logger, what: string): NotificationListener {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let backoffMs = FIRST_BACKOFF_MS;
  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: databaseUrl });
    client = next;
    let failed = false;
    const reconnect = (err?: unknown) => {
      if (failed || stopped) return;
      failed = true;
      log.warn({ err }, `lost the connection that listens for ${what}; reconnecting`);
      next.end().catch(() => undefined);
      retry = setTimeout(() => void connect(), backoffMs);
      backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
    };
    next.on('error', reconnect);
    next.on('end', () => reconnect());
    next.on('notification', (message) => handlers[message.channel]?.(message.payload ?? ''));
    try {
      await next.connect();
      for (const channel of Object.keys(handlers)) await next.query(`LISTEN ${channel}`);
      backoffMs = FIRST_BACKOFF_MS;
      for (const handle of Object.values(handlers)) handle(undefined);
    } catch (err) {
      reconnect(err);
    }
  };
  void connect();
  return {
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await client?.end().catch(() => undefined);
    },
  };
}
