// The gateway process: config, service channels, credential cache kept honest by
// identity's revocation events, the express app, and a graceful stop on SIGTERM.
import { createServer } from 'node:http';
import { ConfigError, HINTS, Shutdown, connectEventBus, createLogger, eventsNamespace, loadConfig, requireSetting, startMetricsServer, startTracing, subscribeBroadcast, subscribeHints } from '@anvil/kit';
import type { identity } from '@anvil/proto';
import { createApp } from './app.js';
import { CredentialCache } from './auth/credential-cache.js';
import { AnswerCache } from './caches/answers.js';
import { AnswerShortcuts } from './caches/answer-shortcuts.js';
import { rememberedFirst } from './http/remembered-first.js';
import { RepositoryAccessCache } from './caches/repository-access.js';
import { createServiceClients } from './services.js';

const log = createLogger('gateway');

async function main(): Promise<void> {
  let config;
  let natsUrl: string, internalToken: string;
  try {
    config = loadConfig();
    natsUrl = requireSetting(config.natsUrl, 'NATS_URL');
    internalToken = requireSetting(config.settings.security.INTERNAL_TOKEN, 'ANVIL__security__INTERNAL_TOKEN');
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`gateway: ${err.message}`);
    process.exit(1);
  }
  const shutdown = new Shutdown(log);
  shutdown.listen();
  const tracing = await startTracing('gateway');
  shutdown.add('tracing', () => tracing.shutdown());

  const services = createServiceClients(config, internalToken);
  shutdown.add('service channels', async () => services.close());
  const credentials = new CredentialCache(Number(process.env.ANVIL_CREDENTIAL_CACHE_TTL_MS ?? 10_000));
  // 0 turns it off; the README's GET /repos figures give both.
  const repositories = new RepositoryAccessCache(Number(process.env.ANVIL_REPOSITORY_CACHE_TTL_MS ?? 10_000));
  // Complete answers of the hot repository reads (caches/answers.ts); 0 turns it off.
  const answers = new AnswerCache(Number(process.env.ANVIL_ANSWER_CACHE_TTL_MS ?? 10_000),
    Number(process.env.ANVIL_ANSWER_CACHE_MAX_MB ?? 64) * 1024 * 1024);

  const bus = await connectEventBus(natsUrl, 'anvil-gateway', eventsNamespace(), log);
  shutdown.add('nats', () => bus.nc.drain());
  // Cached credentials carry their user: drop them on any change another replica handled,
  // so a revocation is immediate everywhere and a profile is never staler than the event.
  const unsubscribes = [
    subscribeBroadcast(bus, 'identity.credential.revoked', log, (payload) => {
      credentials.dropUser((payload as identity.CredentialRevoked).user_id);
    }),
    subscribeBroadcast(bus, 'identity.user.updated', log, (payload) => {
      const user = (payload as identity.UserUpdated).user;
      if (user) credentials.dropUser(user.id);
    }),
    subscribeBroadcast(bus, 'identity.user.deleted', log, (payload) => {
      credentials.dropUser((payload as identity.UserDeleted).user_id);
    }),
  ];
  // The repository service announces every committed change to what it resolves, naming the
  // repositories (undefined: NATS came back and hints may have been missed).
  unsubscribes.push(subscribeHints(bus, HINTS.repositoryAccess, (payload) => repositories.dropRepositoryIds(payload ? payload.split(',') : ['*'])));
  // The repository and collaboration services name every repository whose answers changed
  // (undefined: NATS came back and hints may have been missed). The access hint needs no
  // drop here: its tables are watched for this hint too, per repository, and an answer's key
  // holds the caller's permission as resolved for the request.
  unsubscribes.push(subscribeHints(bus, HINTS.repositoryAnswers, (payload) => answers.dropRepositories(payload ? payload.split(',') : ['*'])));
  shutdown.add('event subscriptions', async () => unsubscribes.forEach((unsubscribe) => unsubscribe()));

  // A GET whose remembered answer is known is sent before express (http/remembered-first.ts),
  // unless tracing wants its span per request in express; ANVIL_ANSWER_SHORTCUTS=0 turns it off.
  const shortcuts = answers.enabled && !tracing.enabled && process.env.ANVIL_ANSWER_SHORTCUTS !== '0'
    ? new AnswerShortcuts({ credentials, repositories, answers })
    : undefined;
  const app = createApp({ config, services, credentials, repositories, answers, shortcuts, log });
  const server = createServer({ keepAliveTimeout: 65_000 }, shortcuts ? rememberedFirst(app, shortcuts, log) : app);
  await new Promise<void>((resolve) => server.listen(config.httpPort, process.env.ANVIL_HTTP_HOST || '0.0.0.0', resolve));
  shutdown.add('http server', () => new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  }));
  const metrics = startMetricsServer(process.env.ANVIL_METRICS_ADDR, 'gateway');
  if (metrics) shutdown.add('metrics', () => new Promise((resolve) => metrics.close(() => resolve())));
  log.info({ port: config.httpPort, rootUrl: config.rootUrl }, 'gateway ready');
}

main().catch((err) => {
  log.fatal({ err }, 'gateway failed to start');
  process.exit(1);
});
