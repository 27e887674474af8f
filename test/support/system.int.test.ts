// The e2e harness itself, on fake deployables (the real ones boot in test/e2e): fresh
// ports and names per run, healthz polling, stop/start of one deployable, and a shutdown
// that leaves no database, stream or data dir behind. Needs the local PostgreSQL and NATS.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { connect } from 'nats';
import pg from 'pg';
import { deployableEntry, DEPLOYABLES } from '../../cli/src/processes.js';
import teardownSharedSystems from './e2e-global-teardown.mjs';
import { sharedNames } from './shared-system.js';
import { bootSystem } from './system.js';

// Services listen on their gRPC port (plain TCP is enough here); the gateway answers
// healthz 200 only while every service port accepts connections, like the real one.
const FAKE = `
import { createServer, createConnection } from 'node:net';
import { createServer as http } from 'node:http';
const name = process.argv[1].split('/').at(-3);
const port = (addr) => Number(addr.slice(addr.lastIndexOf(':') + 1));
process.on('SIGTERM', () => process.exit(0));
const up = (addr) => new Promise((r) => { const s = createConnection(port(addr), '127.0.0.1'); s.on('connect', () => { s.destroy(); r(true); }); s.on('error', () => r(false)); });
if (name === 'gateway') {
  http(async (req, res) => {
    const addrs = ['IDENTITY', 'REPOSITORY', 'COLLABORATION', 'HOOKS'].map((s) => process.env['ANVIL_' + s + '_ADDR']);
    const ok = (await Promise.all(addrs.map(up))).every(Boolean);
    res.writeHead(ok ? 200 : 503).end(JSON.stringify({ status: ok ? 'pass' : 'fail' }));
  }).listen(Number(process.env.ANVIL_HTTP_PORT), '127.0.0.1');
} else {
  setTimeout(() => createServer().listen(port(process.env['ANVIL_' + name.toUpperCase() + '_ADDR']), '127.0.0.1'), 200);
}
`;

/**
 * What the real services would have made of a booted system: a database per service and the
 * event stream. Returns the check that none of it, nor the data dir, is left.
 */
async function leaveWhatServicesMake(env: Readonly<Record<string, string>>): Promise<() => Promise<void>> {
  const prefix = new URL(env.ANVIL_DATABASE_URL!).pathname.slice(1);
  const admin = new pg.Client({ connectionString: 'postgresql://postgres@127.0.0.1:5432/postgres' });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${prefix}_identity`);
  const nc = await connect({ servers: env.NATS_URL });
  const jsm = await nc.jetstreamManager();
  const stream = env.ANVIL_EVENTS_NAMESPACE!.toUpperCase();
  await jsm.streams.add({ name: stream, subjects: [`${env.ANVIL_EVENTS_NAMESPACE}.>`] });
  return async () => {
    const left = await admin.query('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
    await admin.end();
    expect(left.rows).toEqual([]);
    await expect(jsm.streams.info(stream)).rejects.toThrow(/stream not found/);
    await nc.close();
    expect(existsSync(env.ANVIL_DATA_DIR!)).toBe(false);
  };
}

describe('bootSystem (fake deployables)', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'anvil-harness-'));
    for (const name of DEPLOYABLES) {
      await mkdir(dirname(deployableEntry(name, root)), { recursive: true });
      await writeFile(deployableEntry(name, root), FAKE);
    }
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('boots, restarts one deployable, and cleans up after itself', async () => {
    const system = await bootSystem({ root, env: { ANVIL__repository__FORCE_PRIVATE: 'true' } });
    const { env } = system;
    expect(system.baseUrl).toBe(env.ANVIL_ROOT_URL);
    expect((await fetch(`${system.baseUrl}api/healthz`)).status).toBe(200);
    expect(env.ANVIL_ADMIN_USERNAME).toBe(system.admin.username);
    expect(env.ANVIL__repository__FORCE_PRIVATE).toBe('true');
    const prefix = new URL(env.ANVIL_DATABASE_URL).pathname.slice(1);
    expect(prefix).toMatch(/^anvil_e2e_[0-9a-f]{8}$/);

    await system.stop('hooks');
    expect((await fetch(`${system.baseUrl}api/healthz`)).status).toBe(503);
    await system.start('hooks');
    expect((await fetch(`${system.baseUrl}api/healthz`)).status).toBe(200);
    expect(system.crashes).toEqual([]);

    const expectNothingLeft = await leaveWhatServicesMake(env);

    await system.shutdown();
    await expectNothingLeft();
  }, 60_000);

  it('leaves nothing of a shared system behind once the run\'s teardown has run', async () => {
    const run = 'feedbeef';
    const system = await bootSystem({ root, names: sharedNames(run, '1') });
    const { env } = system;
    const expectNothingLeft = await leaveWhatServicesMake(env);

    // No shutdown: the run's end is all a shared system gets.
    const previous = process.env.ANVIL_E2E_RUN;
    process.env.ANVIL_E2E_RUN = run;
    try {
      await teardownSharedSystems();
    } finally {
      if (previous === undefined) delete process.env.ANVIL_E2E_RUN;
      else process.env.ANVIL_E2E_RUN = previous;
    }
    expect((await fetch(`${system.baseUrl}api/healthz`).catch(() => undefined))?.status).toBeUndefined();
    await expectNothingLeft();
  }, 60_000);

  it('explains a boot failure with the children’s last lines', async () => {
    await expect(bootSystem({ root, bootTimeoutMs: 1_500, env: { ANVIL_HTTP_PORT: '1' } })).rejects.toThrow(/did not boot[\s\S]*--- gateway \(last lines\) ---/);
  }, 30_000);
});
