// NATS for `pnpm start` when NATS_URL is unset (DESIGN.md §5): the `nats-server` on PATH,
// JetStream on, its store under <dataDir>/nats (events survive a restart), listening on
// loopback only. There is no npm-packaged server to fall back on, so without one we stop
// and say how to get it.
import { accessSync, constants } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { freePort, isListening, waitUntil } from '../net.js';
import type { ProcessRunner } from '../processes.js';
import { stopLeftover } from './stale.js';

export interface EmbeddedNatsOptions {
  dataDir: string;
  runner: ProcessRunner;
  /** A fixed port; otherwise a free one (nothing outside this run needs to know it). */
  port?: number;
  say?: (message: string) => void;
}

export interface EmbeddedNats {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export const NATS_PROCESS = 'nats';

export class NatsServerNotFound extends Error {
  constructor() {
    super(
      'NATS_URL is not set and no nats-server was found on PATH. Install one ' +
        '(Debian/Ubuntu: `apt-get install nats-server`; elsewhere: https://github.com/nats-io/nats-server/releases) ' +
        'or point NATS_URL at a running NATS server with JetStream enabled.',
    );
  }
}

/**
 * The nats-server executable: PATH first, then the sbin folders Debian installs it in,
 * which ordinary users' PATH often lacks.
 */
export function findNatsServer(path = process.env.PATH ?? '', fallbacks = ['/usr/local/sbin', '/usr/sbin']): string | undefined {
  const dirs = [...path.split(delimiter).filter(Boolean), ...fallbacks];
  for (const dir of dirs) {
    const candidate = join(dir, 'nats-server');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export async function startNats(options: EmbeddedNatsOptions): Promise<EmbeddedNats> {
  const binary = findNatsServer();
  if (!binary) throw new NatsServerNotFound();
  const storeDir = join(options.dataDir, 'nats');
  const pidFile = join(storeDir, 'nats-server.pid');
  await mkdir(storeDir, { recursive: true });
  await stopLeftover(pidFile, ['nats-server', storeDir], 'SIGTERM', options.say ?? (() => undefined));

  const port = options.port ?? (await freePort());
  options.runner.start({
    name: NATS_PROCESS,
    command: binary,
    args: ['--addr', '127.0.0.1', '--port', String(port), '--jetstream', '--store_dir', storeDir, '--pid', pidFile, '--server_name', 'anvil'],
    env: process.env,
  });
  // The server enables JetStream before it accepts clients, so a connection means ready.
  await waitUntil('nats-server to accept connections', () => isListening(port), {
    timeoutMs: 30_000,
    abort: () => (options.runner.isRunning(NATS_PROCESS) ? undefined : `it exited:\n${options.runner.tail(NATS_PROCESS).join('\n')}`),
  });

  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    stop: async () => {
      await options.runner.stop(NATS_PROCESS, 15_000);
    },
  };
}
