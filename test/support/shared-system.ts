// One booted system per jest worker, for the e2e files that ask for it (`bootE2e({ shared:
// true })`), instead of one per file. Booting the five processes costs about 7.5 s of CPU
// on the 2-core machine, which with 58 e2e files was the largest single share of a test
// run. A file may share when it needs no configuration of its own, never stops or kills a
// process, and asserts nothing about the whole site (a list of every user, repository or
// organization, a search across them): everything it checks hangs off users and
// repositories it made itself, with unique names (accounts.ts), as it would on a long-lived
// forge. The files sharing a worker's system run one after the other, never at once.
//
// A jest worker gives every test file a fresh module registry, so nothing a module holds
// survives from one file to the next; Node's built-in modules are the one thing the files
// of a worker share. The system is kept on `node:child_process` (which spawned it) under a
// registered symbol. It lives until the run ends: e2e-global-teardown.mjs then kills the
// run's processes and drops its databases, streams and data directories, all named after
// ANVIL_E2E_RUN, which e2e-global-setup.mjs sets before the workers start.
import childProcess from 'node:child_process';
import type { RunNames } from './isolation.js';
import { bootSystem, type RunningSystem } from './system.js';

const SLOT = Symbol.for('anvil.e2e.sharedSystem');

/** The names of one worker's shared system: under the run's, so the teardown finds them. */
export function sharedNames(run: string, worker: string): RunNames {
  return { databasePrefix: `anvil_e2e_${run}_w${worker}`, eventsNamespace: `e2e_${run}_w${worker}` };
}

function refuse(what: string): () => Promise<void> {
  return () => Promise.reject(new Error(`a shared system cannot ${what} a process: boot one of your own (bootE2e without shared)`));
}

/** This worker's shared system, booted by the first file that asks for it. */
export function sharedSystem(): Promise<RunningSystem> {
  const run = process.env.ANVIL_E2E_RUN;
  if (!run) throw new Error('ANVIL_E2E_RUN is not set: the e2e project\'s globalSetup (test/support/e2e-global-setup.mjs) did not run');
  const slot = childProcess as unknown as Record<symbol, Promise<RunningSystem> | undefined>;
  slot[SLOT] ??= bootSystem({ names: sharedNames(run, process.env.JEST_WORKER_ID ?? '1') }).then(
    (system) => {
      // Nothing closes it before the worker is told to exit, so its processes must not hold
      // the worker (jest would report a leak and force it out); the worker's exit kills them.
      system.unref();
      return { ...system, stop: refuse('stop'), kill: refuse('kill'), start: refuse('start'), shutdown: async () => undefined };
    },
    (err: unknown) => {
      slot[SLOT] = undefined;
      throw err;
    },
  );
  return slot[SLOT];
}
