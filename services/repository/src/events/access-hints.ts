// Forwards PostgreSQL's `repository_access_changed` notifications (raised at commit by the
// triggers of migration 20261125090000) to NATS as the repository-access hint
// (HINTS.repositoryAccess), which tells gateways to forget the repositories and permissions
// they remember. The triggers
// catch every committed change to what ResolveRepository reads, whichever code path made it
// (API writes, pushes, identity's events applied to the read model, size and language
// updates), so no write path has to remember to announce itself.
//
// One dedicated connection LISTENs (a pooled one could be handed back and lose it). When it
// drops, it reconnects with backoff and sends one hint on success: changes made meanwhile
// went unheard. Written here rather than taken from a package (pg-listen) because the job is
// one LISTEN and a reconnect loop on the `pg` client the service already uses.
import pg from 'pg';
import { HINTS, publishHint, type EventBus, type Logger } from '@anvil/kit';

const CHANNEL = 'repository_access_changed';
const MAX_BACKOFF_MS = 5_000;

export interface AccessHintForwarder {
  stop(): Promise<void>;
}

export function forwardAccessHints(databaseUrl: string, bus: EventBus, log: Logger): AccessHintForwarder {
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let backoffMs = 100;
  // Notifications of one burst of commits arrive in one read: one hint per turn of the loop.
  let queued = false;
  const hint = () => {
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      publishHint(bus, HINTS.repositoryAccess);
    });
  };

  const connect = async () => {
    if (stopped) return;
    const next = new pg.Client({ connectionString: databaseUrl });
    client = next;
    let failed = false;
    const reconnect = (err?: unknown) => {
      if (failed || stopped) return;
      failed = true;
      log.warn({ err }, 'lost the connection that listens for repository changes; reconnecting');
      next.end().catch(() => undefined);
      retry = setTimeout(() => void connect(), backoffMs);
      backoffMs = Math.min(backoffMs * 2, MAX_BACKOFF_MS);
    };
    next.on('error', reconnect);
    next.on('end', () => reconnect());
    next.on('notification', hint);
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANNEL}`);
      backoffMs = 100;
      hint();
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
