// Forwards PostgreSQL's `repository_access_changed` notifications (raised at commit by the
// triggers of migration 20261125090000) to NATS as the repository-access hint
// (HINTS.repositoryAccess), which tells gateways to forget the repositories and permissions
// they remember. The triggers
// catch every committed change to what ResolveRepository reads, whichever code path made it
// (API writes, pushes, identity's events applied to the read model, size and language
// updates), so no write path has to remember to announce itself.
//
// kit's listenForNotifications keeps the one LISTEN connection and reconnects it; on every
// (re)connect it sends one hint, since changes made meanwhile went unheard.
import { HINTS, listenForNotifications, publishHint, type EventBus, type Logger, type NotificationListener } from '@anvil/kit';

const CHANNEL = 'repository_access_changed';

export type AccessHintForwarder = NotificationListener;

export function forwardAccessHints(databaseUrl: string, bus: EventBus, log: Logger): AccessHintForwarder {
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
  return listenForNotifications(databaseUrl, { [CHANNEL]: hint }, log, 'repository changes');
}
