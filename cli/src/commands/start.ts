// `anvil start` (`pnpm start`): the whole system on one machine (DESIGN.md §5). Brings
// up PostgreSQL and NATS when the environment names none, the four services, then the
// gateway; prints the URL once /api/healthz passes. Ctrl-C/SIGTERM stops everything in
// reverse dependency order and exits 0. A service or the gateway dying on its own is
// restarted after a growing delay (restart-policy.ts), saying why; meanwhile the gateway
// answers 503 for that service's routes and reconnects by itself. Only a crash loop, or
// PostgreSQL or NATS dying, takes everything down and exits 1, so a broken system never
// looks half-alive.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { checkConfig, type StartConfig } from '../config-check.js';
import { fetchHealth } from '../health.js';
import { startEmbeddedPostgres } from '../infra/embedded-postgres.js';
import { startNats } from '../infra/nats.js';
import { loadOrCreateInternalToken } from '../internal-token.js';
import { sleep } from '../net.js';
import { chooseInternalAddresses, INTERNAL_ADDRESS_VARIABLES, portClaims, takenPortMessage, writeInternalAddresses } from '../ports.js';
import { deployableEntry, DEPLOYABLES, ProcessRunner, SERVICES, type DeployableName, type ProcessExit } from '../processes.js';
import { RestartPolicy } from '../restart-policy.js';

const ME = 'anvil';

/** The events namespace an install gets by default: its database name, as the namespace rules allow it. */
export function eventsNamespaceOf(databaseUrl: string): string {
  const name = decodeURIComponent(new URL(databaseUrl).pathname.slice(1)).toLowerCase().replace(/[^a-z0-9_-]+/g, '_');
  return /^[a-z]/.test(name) ? name : `anvil_${name || 'default'}`;
}

function describeExit(exit: ProcessExit): string {
  if (exit.error) return `could not start (${exit.error.message})`;
  return exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
}

export interface StartOptions {
  /** Where the deployables' dist folders are; the workspace root by default (tests use fakes). */
  root?: string;
}

export async function start(givenEnv: NodeJS.ProcessEnv = process.env, options: StartOptions = {}): Promise<void> {
  // Internal addresses the environment leaves unset are free loopback ports chosen now.
  const chosenAddresses = await chooseInternalAddresses(givenEnv);
  const env: NodeJS.ProcessEnv = { ...givenEnv, ...chosenAddresses };
  // Read in a child process: the supervisor never imports the kit (config-check.ts says why).
  const checked = checkConfig(env);
  if (!checked.ok) {
    console.error(checked.message);
    process.exit(1);
  }
  const config: StartConfig = checked.config;

  // Check the build before starting databases we would only have to stop again.
  const missing = DEPLOYABLES.map((name) => deployableEntry(name, options.root)).filter((entry) => !existsSync(entry));
  if (missing.length) {
    console.error(`not built yet (missing ${missing.join(', ')}): run \`pnpm build\` first`);
    process.exit(1);
  }

  // A port another program holds would crash a child half way through start-up: say which
  // variable moves it, before anything is started.
  const taken = await takenPortMessage(portClaims(config, env));
  if (taken) {
    console.error(taken);
    process.exit(1);
  }

  let stopping: Promise<void> | undefined;
  const infra: Array<{ stop(): Promise<void> }> = [];
  // Set once PostgreSQL and NATS are known; what a restarted deployable gets again.
  let childEnv: NodeJS.ProcessEnv | undefined;
  const restarts = new RestartPolicy();
  const runner = new ProcessRunner({
    onExit: (exit) => {
      if (exit.expected || stopping) return;
      if (!(DEPLOYABLES as readonly string[]).includes(exit.name) || !childEnv) {
        void stopEverything(1, `${exit.name} ${describeExit(exit)}; stopping Anvil`);
        return;
      }
      restartLater(exit.name as DeployableName, exit, childEnv);
    },
  });
  const say = (line: string) => runner.print(ME, line);

  function restartLater(name: DeployableName, exit: ProcessExit, env: NodeJS.ProcessEnv): void {
    const decision = restarts.onCrash(name, Date.now());
    const { maxCrashes, windowMs } = restarts.options;
    const lastLine = runner.tail(name).filter((line) => line.trim()).at(-1);
    const why = lastLine ? ` (its last line: ${lastLine.slice(0, 500)})` : '';
    if (!decision.restart) {
      void stopEverything(1, `${name} ${describeExit(exit)}${why}; it crashed ${decision.crashes} times within ${windowMs / 1000} s, a crash loop: stopping Anvil`);
      return;
    }
    runner.print(ME, `${name} ${describeExit(exit)}${why}; restarting it in ${decision.delayMs} ms (crash ${decision.crashes} of ${maxCrashes} within ${windowMs / 1000} s stops Anvil)`, 'stderr');
    setTimeout(() => {
      if (stopping || runner.isRunning(name)) return;
      try {
        runner.startDeployable(name, env, { root: options.root });
        say(`${name} restarted`);
      } catch (err) {
        void stopEverything(1, `${name} could not be restarted: ${(err as Error).message}`);
      }
    }, decision.delayMs);
  }

  // Children live in their own process groups (see processes.ts): if we crash, take them along.
  process.on('exit', () => runner.killAllSync());

  function stopEverything(code: number, reason?: string): Promise<void> {
    stopping ??= (async () => {
      if (reason) runner.print(ME, reason, 'stderr');
      say('stopping');
      // The gateway first, so no request reaches a service that is going away; the
      // infrastructure last, so services can finish their work and close cleanly.
      await runner.stop('gateway');
      await Promise.all(SERVICES.map((name) => runner.stop(name)));
      for (const server of infra.reverse()) await server.stop();
      await runner.stopAll();
      say('stopped');
      process.exit(code);
    })();
    return stopping;
  }

  let firstSignalAt = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    // Under `pnpm start` a Ctrl-C arrives twice at once: from the terminal and forwarded
    // by pnpm. Only a signal well after the first means "stop waiting".
    if (stopping && Date.now() - firstSignalAt < 1_000) return;
    firstSignalAt = Date.now();
    if (stopping) {
      // A second Ctrl-C: the user does not want to wait.
      runner.print(ME, `${signal} again: killing everything`, 'stderr');
      runner.killAllSync();
      process.exit(1);
    }
    void stopEverything(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);

  try {
    await mkdir(config.dataDir, { recursive: true });
    await writeInternalAddresses(config.dataDir, Object.fromEntries(INTERNAL_ADDRESS_VARIABLES.map((name) => [name, env[name]!])));
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      const postgres = await startEmbeddedPostgres({ dataDir: config.dataDir, runner, say });
      infra.push(postgres);
      databaseUrl = postgres.url;
      say(`embedded PostgreSQL on 127.0.0.1:${postgres.port} (data in ${config.dataDir}/postgres)`);
    }
    if (stopping) return;
    let natsUrl = config.natsUrl;
    if (!natsUrl) {
      const nats = await startNats({ dataDir: config.dataDir, runner, say });
      infra.push(nats);
      natsUrl = nats.url;
      say(`embedded NATS on ${nats.url} (JetStream store in ${config.dataDir}/nats)`);
    }
    if (stopping) return;
    const token = config.internalToken ?? (await loadOrCreateInternalToken(config.dataDir));

    // Everything a child needs that we may have decided for it is passed explicitly; the
    // rest (ANVIL__* settings, addresses, admin bootstrap) it reads from the same env.
    childEnv = {
      ...env,
      ANVIL_DATA_DIR: config.dataDir,
      ANVIL_DATABASE_URL: databaseUrl,
      NATS_URL: natsUrl,
      ANVIL__security__INTERNAL_TOKEN: token,
      // Two installs sharing one NATS must not share durable consumers: unless told
      // otherwise, the events namespace follows the database name (`.../anvil` → `anvil`).
      ANVIL_EVENTS_NAMESPACE: env.ANVIL_EVENTS_NAMESPACE || eventsNamespaceOf(databaseUrl),
    };
    for (const name of SERVICES) runner.startDeployable(name, childEnv, { root: options.root });
    runner.startDeployable('gateway', childEnv, { root: options.root });
  } catch (err) {
    await stopEverything(1, (err as Error).message);
    return;
  }

  // Services migrate their databases before serving, so the first start can take a while.
  const local = `http://127.0.0.1:${config.httpPort}/`;
  const startedAt = Date.now();
  let warned = false;
  while (!stopping) {
    const health = await fetchHealth(local);
    if (stopping) return;
    if (health.ok) {
      say(`Anvil is ready at ${config.rootUrl} (gateway listening on port ${config.httpPort})`);
      return;
    }
    if (!warned && Date.now() - startedAt > 60_000) {
      warned = true;
      runner.print(ME, `still waiting for ${local}api/healthz (last answer: ${health.status || 'none'} ${health.body.slice(0, 200)})`, 'stderr');
    }
    await sleep(250);
  }
}
