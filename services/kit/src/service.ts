// The wiring every service's main.ts shares: config, logger, migrations under a lock,
// database, event bus, outbox relay, gRPC server with health, consumers, shutdown.
// A service's main.ts only says what is its own.
import type * as grpc from '@grpc/grpc-js';
import { ConfigError, loadConfig, serviceDatabaseUrl, type Config, type ServiceName } from './config/index.js';
import type { DomainError } from './errors.js';
import pg from 'pg';
import { applyMigrations } from './db/migrate.js';
import { pgSqlClient } from './db/pg-outbox.js';
import { poolConfig } from './db/prisma.js';
import { connectEventBus, eventsNamespace, type EventBus } from './events/bus.js';
import { startConsumer, type ConsumerOptions } from './events/consumer.js';
import { eventAdminGrpcService } from './events/event-admin-service.js';
import { startOutboxRelay, type OutboxRelay } from './events/outbox.js';
import type { SqlClient, TransactionalSqlClient } from './events/sql.js';
import { listenAddress } from './grpc/balancing.js';
import { startGrpcServer } from './grpc/server.js';
import { createLogger, type Logger } from './log.js';
import { startMetricsServer } from './metrics.js';
import { Shutdown } from './shutdown.js';
import { startTracing } from './telemetry/tracing.js';

export interface ServiceDeps<Db> {
  config: Config;
  log: Logger;
  db: Db;
  bus: EventBus;
  relay: OutboxRelay;
  secret: string;
  /** The service's own database URL (the per-service database of ANVIL_DATABASE_URL). */
  databaseUrl: string;
  /** Registers work to undo at shutdown (see Shutdown.add). */
  onShutdown(name: string, run: () => Promise<void>): void;
}

export interface ServiceSpec<Db extends TransactionalSqlClient<Tx> & { $disconnect(): Promise<void> }, Tx extends SqlClient, Ctx = void> {
  name: ServiceName;
  /** Absolute path of the service's prisma/migrations folder. */
  migrationsDir: string;
  createDb(databaseUrl: string): Db;
  /**
   * Runs after migrations, before consumers start and the gRPC server accepts calls (e.g.
   * admin bootstrap). What it returns is the service's wiring, handed to `grpcServices` and
   * `consumers`, so main.ts keeps no module-level state.
   */
  beforeServing?(deps: ServiceDeps<Db>): Promise<Ctx>;
  grpcServices(deps: ServiceDeps<Db>, context: Ctx): Array<{ name: string; definition: grpc.ServiceDefinition; implementation: object }>;
  consumers?(deps: ServiceDeps<Db>, context: Ctx): Array<Omit<ConsumerOptions<Tx>, 'db' | 'bus' | 'log'>>;
  /** Failures the service names for its callers (GrpcServerOptions.domainErrorOf). */
  domainErrorOf?(err: unknown): DomainError | undefined;
}

export function requireSetting<T>(value: T | undefined, name: string): T {
  if (value === undefined || value === '') throw new ConfigError(`${name} must be set`);
  return value;
}

export async function runService<Db extends TransactionalSqlClient<Tx> & { $disconnect(): Promise<void> }, Tx extends SqlClient, Ctx = void>(
  spec: ServiceSpec<Db, Tx, Ctx>,
): Promise<void> {
  const log = createLogger(spec.name);
  let config: Config, databaseRoot: string, natsUrl: string, secret: string;
  try {
    config = loadConfig();
    databaseRoot = requireSetting(config.databaseUrl, 'ANVIL_DATABASE_URL');
    natsUrl = requireSetting(config.natsUrl, 'NATS_URL');
    secret = requireSetting(config.settings.security.INTERNAL_TOKEN, 'ANVIL__security__INTERNAL_TOKEN');
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`${spec.name}: ${err.message}`);
    process.exit(1);
  }
  const shutdown = new Shutdown(log);
  shutdown.listen();
  const tracing = await startTracing(spec.name);
  shutdown.add('tracing', () => tracing.shutdown());

  const databaseUrl = serviceDatabaseUrl(databaseRoot, spec.name);
  await applyMigrations({ databaseUrl, migrationsDir: spec.migrationsDir, log });
  // Kubernetes runs migrations as a Job before rolling out new pods (deploy/kubernetes).
  if (process.env.ANVIL_MIGRATE_ONLY === 'true') {
    log.info('migrations applied; ANVIL_MIGRATE_ONLY is set, exiting');
    process.exit(0);
  }
  const db = spec.createDb(databaseUrl);
  shutdown.add('database', () => db.$disconnect());

  const bus = await connectEventBus(natsUrl, `anvil-${spec.name}`, eventsNamespace(), log);
  shutdown.add('nats', () => bus.nc.drain());
  // The relay runs on a pg pool of its own (one connection is all its loop uses), not Prisma.
  const relayPool = new pg.Pool(poolConfig(databaseUrl, 1));
  shutdown.add('outbox relay pool', () => relayPool.end());
  const relay = startOutboxRelay(pgSqlClient(relayPool), bus, log);
  shutdown.add('outbox relay', () => relay.stop());

  const deps: ServiceDeps<Db> = { config, log, db, bus, relay, secret, databaseUrl, onShutdown: (name, run) => shutdown.add(name, run) };
  const context = (await spec.beforeServing?.(deps)) as Ctx;

  for (const consumer of spec.consumers?.(deps, context) ?? []) {
    const running = await startConsumer<Tx>({ ...consumer, db, bus, log });
    shutdown.add(`consumer ${consumer.durable}`, () => running.stop());
  }

  const server = await startGrpcServer({
    listen: process.env.ANVIL_GRPC_LISTEN || listenAddress(config.addresses[spec.name]),
    secret,
    log,
    services: [...spec.grpcServices(deps, context), eventAdminGrpcService(db, () => relay.kick())],
    domainErrorOf: spec.domainErrorOf,
  });
  shutdown.add('grpc server', () => server.shutdown());
  const metrics = startMetricsServer(process.env.ANVIL_METRICS_ADDR, spec.name);
  if (metrics) shutdown.add('metrics', () => new Promise((resolve) => metrics.close(() => resolve())));
  log.info({ port: server.port }, `${spec.name} ready`);
}
