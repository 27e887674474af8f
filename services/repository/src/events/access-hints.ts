// Forwards PostgreSQL's notifications to NATS as cache hints for the gateways:
// - `repository_access_changed` (raised at commit by the triggers of migrations
//   20261125090000, 20261128070000, 20261129090000 and 20261129230000, payload the
//   repository's id, `+<id>` when the change may make a name resolve, `~<id>` when only the
//   repository's figures changed (size, updated_at, counts), or empty for any) as the
//   repository-access hint (HINTS.repositoryAccess), which tells gateways to forget the
//   resolutions (repository and permission) of those repositories, with `+` the "not
//   found"s they remember too, with `~` only what shows the repository's JSON;
// - `repository_answers_changed` (the row triggers of migration 20261128010000, payload the
//   repository's id) as the repository-answers hint, which tells gateways to forget the
//   cached API answers of those repositories (gateway/src/caches/answers.ts).
// The triggers catch every committed change to what they watch, whichever code path made it
// (API writes, pushes, identity's events applied to the read model, size and language
// updates), so no write path has to remember to announce itself.
//
// kit's listenForNotifications keeps the one LISTEN connection and reconnects it; on every
// (re)connect it sends one hint of each, since changes made meanwhile went unheard.
import { ANSWERS_CHANNEL, HINTS, answerHintForwarder, listenForNotifications, repositoryHintForwarder, type EventBus, type Logger, type NotificationListener } from '@anvil/kit';

const ACCESS_CHANNEL = 'repository_access_changed';

export type AccessHintForwarder = NotificationListener;

export function forwardAccessHints(databaseUrl: string, bus: EventBus, log: Logger): AccessHintForwarder {
  return listenForNotifications(databaseUrl, {
    [ACCESS_CHANNEL]: repositoryHintForwarder(bus, HINTS.repositoryAccess),
    [ANSWERS_CHANNEL]: answerHintForwarder(bus),
  }, log, 'repository changes');
}
