// The hooks service's PostgreSQL notifications, on one dedicated connection: deliveries
// queued in any replica (`hook_delivery_queued`, raised by the transaction that writes them
// and delivered at commit) wake the sender pool; hook changes (`webhook_changed`) empty the
// hook cache. On (re)connect every handler runs once, for what went unheard meanwhile. The
// pool also polls and the cache expires, so a lost connection only slows things down.
import pg from 'pg';
import type { Logger } from '@anvil/kit';

export function listenForNotifications(databaseUrl: string, handlers: Record<string, () => void>, log: Logger): { stop(): Promise<void> } {
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
      log.warn({ err }, 'lost the connection that listens for queued deliveries and hook changes; reconnecting');
      next.end().catch(() => undefined);
      retry = setTimeout(() => void connect(), 1_000);
    };
    next.on('error', reconnect);
    next.on('end', () => reconnect());
    next.on('notification', (message) => handlers[message.channel]?.());
    try {
      await next.connect();
      for (const channel of Object.keys(handlers)) await next.query(`LISTEN ${channel}`);
      for (const handle of Object.values(handlers)) handle();
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
