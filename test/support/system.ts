// Boots the whole system for an end-to-end suite: the five deployables from their built
// dist, as separate processes, exactly as `pnpm start` runs them, but on free ports, a
// fresh database prefix and events namespace on the shared local PostgreSQL and NATS,
// and a temporary data dir, so suites can run in parallel. Ready means /api/healthz
// answered 200 (polled, never a fixed sleep).
//
//   const system = await bootSystem();
//   ... new ApiClient(system.baseUrl) ...
//   await system.shutdown();
import { randomBytes } from 'node:crypto';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchHealth } from '../../cli/src/health.js';
import { freePorts, isListening, waitUntil } from '../../cli/src/net.js';
import { DEPLOYABLES, ProcessRunner, REPO_ROOT, SERVICES, type DeployableName, type ProcessExit } from '../../cli/src/processes.js';
import { serviceDatabaseUrl, type ServiceName } from '@anvil/kit';
import { createMigratedDatabase } from './database-templates.js';
import { deleteRunStreams, dropRunDatabases, newRunNames, withDatabase, type RunNames } from './isolation.js';

export interface AdminAccount {
  username: string;
  password: string;
  email: string;
}

export interface BootOptions {
  /** Any database on the PostgreSQL server to use; default ANVIL_TEST_PG_URL or the local trust-auth one. */
  postgresUrl?: string;
  /** Default ANVIL_TEST_NATS_URL or nats://127.0.0.1:4222. */
  natsUrl?: string;
  admin?: AdminAccount;
  /** Extra environment for every deployable, e.g. `{ ANVIL__repository__FORCE_PRIVATE: 'true' }`. */
  env?: Record<string, string>;
  /** Extra environment for one deployable only, on top of `env` (e.g. its own ANVIL_METRICS_ADDR). */
  deployableEnv?: Partial<Record<DeployableName, Record<string, string>>>;
  /** Stream the children's output; default when ANVIL_E2E_LOGS=1 (it is kept for errors either way). */
  logs?: boolean;
  /** Hears every line the deployables print (prefixed with the deployable's name), e.g. to assert what is logged. */
  onOutput?: (text: string) => void;
  /** How long boot (migrations included) may take. */
  bootTimeoutMs?: number;
  /** Where the deployables' dist folders are; the workspace root (tests of this harness use fakes). */
  root?: string;
  /** Database prefix and events namespace; default fresh random ones (isolation.ts). */
  names?: RunNames;
}

export interface RunningSystem {
  /** The gateway's root, ending in "/" (also its ANVIL_ROOT_URL). */
  baseUrl: string;
  admin: AdminAccount;
  /** The environment every deployable got: addresses, database prefix URL, NATS, token. */
  env: Readonly<Record<string, string>>;
  /** Children that died without stop() asking; a suite may assert this stays empty. */
  crashes: ProcessExit[];
  /** Stops one deployable (SIGTERM, waits). */
  stop(name: DeployableName): Promise<void>;
  /** Kills one deployable with SIGKILL, no warning (it lands in `crashes`), and waits for it to be gone. */
  kill(name: DeployableName): Promise<void>;
  /** Starts it again with the same env; waits until it listens, and for healthz if all run. */
  start(name: DeployableName): Promise<void>;
  /** Stops everything, drops the run's databases and NATS streams, removes the data dir. */
  shutdown(): Promise<void>;
  /**
   * Lets the test process exit while the system runs (a jest worker whose files share it,
   * shared-system.ts): the processes are killed when it exits, whatever is left of them
   * is the run's teardown's to remove.
   */
  unref(): void;
}

/**
 * V8 flags of the booted deployables beyond their own: no optimizing compiler. A test's
 * processes live seconds, and at boot TurboFan compiled code that was never used long
 * enough to pay back: without it a boot costs about a quarter less CPU (7.3 → 5.7 s for
 * the five processes on the 2-core machine), which is most of what a run of the suite does.
 * What the code does is the same in every tier.
 */
export const TEST_NODE_FLAGS = ['--no-opt'];

// Only what a process needs from the outer world: the developer's own ANVIL_* variables
// must not leak into a run, nor jest's NODE_OPTIONS.
const INHERITED = ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TMPDIR', 'TZ', 'ANVIL_LOG_LEVEL'];

function listenPort(address: string): number {
  return Number(address.slice(address.lastIndexOf(':') + 1));
}

/**
 * Each service's database made already migrated, from a template (database-templates.ts),
 * before the services start: they find their migrations applied. A root without a
 * service's migrations (this harness's own tests run fakes) leaves that service to itself.
 */
async function premigrate(databaseRoot: string, root: string): Promise<void> {
  await Promise.all(SERVICES.map(async (service) => {
    const migrationsDir = join(root, 'services', service, 'prisma', 'migrations');
    if (!(await access(migrationsDir).then(() => true, () => false))) return;
    const database = new URL(serviceDatabaseUrl(databaseRoot, service as ServiceName)).pathname.slice(1);
    await createMigratedDatabase(databaseRoot, database, migrationsDir);
  }));
}

export async function bootSystem(options: BootOptions = {}): Promise<RunningSystem> {
  const postgresUrl = options.postgresUrl ?? process.env.ANVIL_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const natsUrl = options.natsUrl ?? process.env.ANVIL_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
  const id = randomBytes(4).toString('hex');
  const admin = options.admin ?? { username: 'e2e-admin', password: `Pw-${id}-e2e`, email: 'e2e-admin@example.com' };
  const names = options.names ?? newRunNames();
  // Named after the events namespace, so a run's leftovers can be found by it (e2e-global-teardown.mjs).
  const dataDir = await mkdtemp(join(tmpdir(), `anvil-${names.eventsNamespace}-`));
  const [httpPort, identity, repository, collaboration, hooks, repositoryHttp] = await freePorts(6);
  const baseUrl = `http://127.0.0.1:${httpPort}/`;

  const env: Record<string, string> = {
    ...Object.fromEntries(INHERITED.flatMap((key) => (process.env[key] ? [[key, process.env[key]!]] : []))),
    ANVIL_HTTP_PORT: String(httpPort),
    ANVIL_ROOT_URL: baseUrl,
    ANVIL_DATA_DIR: dataDir,
    ANVIL_DATABASE_URL: withDatabase(postgresUrl, names.databasePrefix),
    NATS_URL: natsUrl,
    ANVIL_EVENTS_NAMESPACE: names.eventsNamespace,
    ANVIL__security__INTERNAL_TOKEN: randomBytes(32).toString('base64url'),
    ANVIL_IDENTITY_ADDR: `127.0.0.1:${identity}`,
    ANVIL_REPOSITORY_ADDR: `127.0.0.1:${repository}`,
    ANVIL_COLLABORATION_ADDR: `127.0.0.1:${collaboration}`,
    ANVIL_HOOKS_ADDR: `127.0.0.1:${hooks}`,
    ANVIL_REPOSITORY_HTTP_ADDR: `127.0.0.1:${repositoryHttp}`,
    ANVIL_ADMIN_USERNAME: admin.username,
    ANVIL_ADMIN_PASSWORD: admin.password,
    ANVIL_ADMIN_EMAIL: admin.email,
    // Remembered repositories live 10 minutes here instead of 10 s: a change the gateway is
    // not told of would then outlast any test, so every suite checks that it is told.
    ANVIL_REPOSITORY_CACHE_TTL_MS: '600000',
    // Remembered answers too (gateway/src/caches/answers.ts): every suite that reads after a
    // write checks that the write (or the trigger of the row it changed) dropped them.
    ANVIL_ANSWER_CACHE_TTL_MS: '600000',
    ...options.env,
  };
  const ports: Record<DeployableName, number> = { gateway: httpPort, identity, repository, collaboration, hooks };
  const envOf = (name: DeployableName) => ({ ...env, ...options.deployableEnv?.[name] });

  const crashes: ProcessExit[] = [];
  let shuttingDown = false;
  const logs = options.logs ?? process.env.ANVIL_E2E_LOGS === '1';
  const runner = new ProcessRunner({
    write: (text, stream) => {
      options.onOutput?.(text);
      if (logs) (stream === 'stdout' ? process.stdout : process.stderr).write(text);
    },
    tailLines: 200,
    onExit: (exit) => {
      if (!exit.expected && !shuttingDown) crashes.push(exit);
    },
  });
  // If jest's worker exits without shutdown() (a timeout, a crash), take the children along.
  const killOnExit = () => runner.killAllSync();
  process.on('exit', killOnExit);

  const anyDown = () => {
    const down = DEPLOYABLES.filter((name) => !runner.isRunning(name));
    return down.length ? `${down.join(', ')} not running` : undefined;
  };
  const report = (message: string) =>
    [message, ...DEPLOYABLES.map((name) => `--- ${name} (last lines) ---\n${runner.tail(name).join('\n')}`)].join('\n');

  const waitHealthy = (timeoutMs: number) =>
    waitUntil(`${baseUrl}api/healthz to answer 200`, async () => (await fetchHealth(baseUrl)).ok, { timeoutMs, abort: anyDown });

  async function shutdown(): Promise<void> {
    if (shuttingDown) return;
    shuttingDown = true;
    // Same order as the supervisor: the gateway first, then the services together.
    await runner.stop('gateway');
    await Promise.all(SERVICES.map((name) => runner.stop(name)));
    process.off('exit', killOnExit);
    await dropRunDatabases(postgresUrl, names.databasePrefix);
    await deleteRunStreams(natsUrl, names.eventsNamespace);
    await rm(dataDir, { recursive: true, force: true });
  }

  try {
    await premigrate(env.ANVIL_DATABASE_URL, options.root ?? REPO_ROOT);
    // Services first so the gateway's first health checks find them starting, not absent.
    for (const name of SERVICES) runner.startDeployable(name, envOf(name), { root: options.root, nodeFlags: TEST_NODE_FLAGS });
    runner.startDeployable('gateway', envOf('gateway'), { root: options.root, nodeFlags: TEST_NODE_FLAGS });
    await waitHealthy(options.bootTimeoutMs ?? 120_000);
  } catch (err) {
    const message = report(`the system did not boot: ${(err as Error).message}`);
    await shutdown().catch(() => undefined);
    throw new Error(message);
  }

  return {
    baseUrl,
    admin,
    env,
    crashes,
    stop: async (name) => {
      await runner.stop(name);
    },
    kill: async (name) => {
      await runner.kill(name, 'SIGKILL');
    },
    start: async (name) => {
      runner.startDeployable(name, envOf(name), { root: options.root, nodeFlags: TEST_NODE_FLAGS });
      const abort = () => (runner.isRunning(name) ? undefined : `${name} exited`);
      try {
        // A service listens only once migrated and ready to serve; the gateway once routed.
        await waitUntil(`${name} to listen`, () => isListening(ports[name]), { timeoutMs: 60_000, abort });
        if (!anyDown()) await waitHealthy(60_000);
      } catch (err) {
        throw new Error(report(`${name} did not come back: ${(err as Error).message}`));
      }
    },
    shutdown,
    unref: () => runner.unref(),
  };
}
