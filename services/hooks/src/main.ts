// The hooks service: wiring only (DESIGN.md §2).
import { fileURLToPath } from 'node:url';
import { hostList, listenForNotifications, runService, secretBox, type SecretBox, type ServiceDeps } from '@anvil/kit';
import { outboundDispatcher } from '@anvil/kit/outbound';
import { startSenders } from './delivery/sender.js';
import { testDeliveries } from './delivery/test-deliveries.js';
import { webhookConsumer } from './events/webhook-consumer.js';
import { hooksGrpcService, type HooksServiceDeps } from './grpc/hooks-service.js';
import { createDb, type HooksDb, type HooksTx } from './store/db.js';
import { DELIVERY_CHANNEL, deliveryHistory, deliveryQueue, pruneDeliveries } from './store/deliveries.js';
import { HookMatchCache, WEBHOOK_CHANNEL } from './store/hook-match-cache.js';
import { sealStoredSecrets, webhookStore } from './store/webhooks.js';

const PRUNE_EVERY_MS = 10 * 60_000;

interface Wiring {
  services: HooksServiceDeps;
  /** Shared by the consumers and emptied by the listener; one per process. */
  hookCache: HookMatchCache;
}

/** The sender pool, started once the database is there; stopped at shutdown. */
function startDelivering({ db, config, log, databaseUrl, onShutdown }: ServiceDeps<HooksDb>, hookCache: HookMatchCache, box: SecretBox): void {
  const settings = config.settings.webhook;
  const timeoutMs = settings.DELIVER_TIMEOUT * 1000;
  const dispatcher = outboundDispatcher({
    allowed: hostList(settings.ALLOWED_HOST_LIST), setting: '[webhook] ALLOWED_HOST_LIST',
    connectTimeoutMs: timeoutMs, skipTlsVerify: settings.SKIP_TLS_VERIFY, maxRedirections: 5,
  });
  const senders = startSenders({
    queue: deliveryQueue(db, box), dispatcher, timeoutMs, log,
    policy: { maxAttempts: settings.MAX_ATTEMPTS, backoffMs: settings.RETRY_BACKOFF_MS },
    senders: settings.SENDERS, maxPerHost: settings.MAX_PER_HOST,
  });
  // Deliveries queued in any replica (raised by the transaction that writes them, delivered
  // at commit) wake the sender pool; hook changes empty the hook cache. The pool also polls
  // and the cache expires, so a lost connection only slows things down.
  const listener = listenForNotifications(databaseUrl, { [DELIVERY_CHANNEL]: senders.kick, [WEBHOOK_CHANNEL]: () => hookCache.clear() }, log,
    'queued deliveries and hook changes');
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
    const { db, config, log, secret } = deps;
    const hookCache = new HookMatchCache();
    // Webhook secrets and Authorization headers are sealed with [security] SECRET_KEY (else INTERNAL_TOKEN).
    const box = secretBox(config.settings.security.SECRET_KEY || secret, 'webhook secrets');
    // Hooks stored before secrets were encrypted at rest get theirs sealed now.
    const sealed = await sealStoredSecrets(db, box);
    if (sealed) log.info({ sealed }, 'sealed webhook secrets stored in clear');
    startDelivering(deps, hookCache, box);
    return { hookCache, services: { webhooks: webhookStore(db, box), tests: testDeliveries(db, config.rootUrl), deliveries: deliveryHistory(db) } };
  },
  grpcServices: (_deps, { services }) => [hooksGrpcService(services)],
  // [webhook] CONSUMERS pullers on the one durable consumer: each event is still handled once
  // (the kit consumer's processed_event). One keeps the stream's order within a process;
  // more let handlers, which mostly wait on the database, overlap.
  // Each takes up to [webhook] CONSUMER_BATCH waiting events per transaction (one commit for
  // the batch instead of one per event: the consumer was bound by commits).
  consumers: (deps, { hookCache }) => Array.from({ length: deps.config.settings.webhook.CONSUMERS }, () => ({
    ...webhookConsumer(deps.config.rootUrl, hookCache, deps.db), batch: deps.config.settings.webhook.CONSUMER_BATCH,
  })),
});
