// Wakes the sender pool when deliveries are queued in any replica: the transaction that
// writes them raises `hook_delivery_queued` (PostgreSQL delivers it at commit), and one
// dedicated connection here LISTENs for it. The pool also polls, so a lost connection only
// slows deliveries down until it is back.
import pg from 'pg';
import type { Logger } from '@anvil/kit';
import { DELIVERY_CHANNEL } from '../store/deliveries.js';

export function listenForDeliveries(databaseUrl: string, onQueued: () => void, log: Logger): { stop(): Promise<void> } {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: databaseUrl });
    client = next;
    let failed = false;
    const reconnect = (err?: unknown) => {
      if (failed || stopped) return;
      failed = true;
      log.warn({ err }, 'lost the connection that listens for queued deliveries; reconnecting');
      next.end().catch(() => undefined);
      retry = setTimeout(() => void connect(), 1_000);
    };
    next.on('error', reconnect);
    next.on('end', () => reconnect());
    next.on('notification', () => onQueued());
    try {
      await next.connect();
      await next.query(`LISTEN ${DELIVERY_CHANNEL}`);
      onQueued();
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
