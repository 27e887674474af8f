// The hooks service: wiring only (DESIGN.md §2).
import { fileURLToPath } from 'node:url';
import { hostList, outboundDispatcher, runService, type ServiceDeps } from '@anvil/kit';
import { startSenders } from './delivery/sender.js';
import { testDeliveries } from './delivery/test-deliveries.js';
import { listenForNotifications } from './delivery/wakeup.js';
import { webhookConsumer } from './events/webhook-consumer.js';
import { hooksGrpcService, type HooksServiceDeps } from './grpc/hooks-service.js';
import { createDb, type HooksDb, type HooksTx } from './store/db.js';
import { DELIVERY_CHANNEL, deliveryHistory, deliveryQueue, pruneDeliveries } from './store/deliveries.js';
import { HookMatchCache, WEBHOOK_CHANNEL } from './store/hook-match-cache.js';
import { webhookStore } from './store/webhooks.js';

const PRUNE_EVERY_MS = 10 * 60_000;

interface Wiring {
  services: HooksServiceDeps;
  /** Shared by the consumers and emptied by the listener; one per process. */
  hookCache: HookMatchCache;
}

/** The sender pool, started once the database is there; stopped at shutdown. */
function startDelivering({ db, config, log, databaseUrl, onShutdown }: ServiceDeps<HooksDb>, hookCache: HookMatchCache): void {
  const settings = config.settings.webhook;
  const timeoutMs = settings.DELIVER_TIMEOUT * 1000;
  const dispatcher = outboundDispatcher({
    allowed: hostList(settings.ALLOWED_HOST_LIST), setting: '[webhook] ALLOWED_HOST_LIST',
    connectTimeoutMs: timeoutMs, skipTlsVerify: settings.SKIP_TLS_VERIFY, maxRedirections: 5,
  });
  const senders = startSenders({
    queue: deliveryQueue(db), dispatcher, timeoutMs, log,
    policy: { maxAttempts: settings.MAX_ATTEMPTS, backoffMs: settings.RETRY_BACKOFF_MS },
    senders: settings.SENDERS, maxPerHost: settings.MAX_PER_HOST,
  });
  const listener = listenForNotifications(databaseUrl, { [DELIVERY_CHANNEL]: senders.kick, [WEBHOOK_CHANNEL]: () => hookCache.clear() }, log);
  // Old deliveries go by age and by count per hook; every replica may run it (a DELETE).
  const prune = () => pruneDeliveries(db, settings.DELIVERY_MAX_AGE_DAYS, settings.DELIVERY_MAX_PER_HOOK)
    .catch((err: unknown) => log.warn({ err }, 'could not prune webhook deliveries'));
  const pruning = setInterval(prune, PRUNE_EVERY_MS);
  pruning.unref();
  void prune();
  onShutdown('webhook senders', async () => {
    clearInterval(pruning);
    await listener.stop();
    await senders.stop();
    await dispatcher.close();
  });
}

await runService<HooksDb, HooksTx, Wiring>({
  name: 'hooks',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  createDb,
  async beforeServing(deps) {
    const { db, config } = deps;
    const hookCache = new HookMatchCache();
    startDelivering(deps, hookCache);
    return { hookCache, services: { webhooks: webhookStore(db), tests: testDeliveries(db, config.rootUrl), deliveries: deliveryHistory(db) } };
  },
  grpcServices: (_deps, { services }) => [hooksGrpcService(services)],
  // [webhook] CONSUMERS pullers on the one durable consumer: each event is still handled once
  // (the kit consumer's processed_event). One keeps the stream's order within a process;
  // more let handlers, which mostly wait on the database, overlap.
  consumers: (deps, { hookCache }) => Array.from({ length: deps.config.settings.webhook.CONSUMERS }, () => webhookConsumer(deps.config.rootUrl, hookCache)),
});
