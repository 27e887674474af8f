// The supervisor end to end with fake deployables: each fake records the environment it
// got and, on SIGTERM, appends its name to a shared file (that gives the stop order); the
// fake gateway answers /api/healthz. Runs the built cli/dist in a child process, because
// start() owns signals and process.exit; skipped until `pnpm build` has made it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer, type Server } from 'node:net';
import { freePort, freePorts } from '../src/net.js';
import { deployableEntry, DEPLOYABLES } from '../src/processes.js';

const START_JS = resolve(fileURLToPath(import.meta.url), '../../dist/commands/start.js');

const FAKE = `
import { createServer } from 'node:http';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
const name = process.argv[1].split('/').at(-3);
const dir = process.env.FAKE_DIR;
writeFileSync(dir + '/' + name + '.env.json', JSON.stringify(process.env));
// 'up' only once SIGTERM is handled, so a test that waits for it can stop it at once.
process.on('SIGTERM', () => { appendFileSync(dir + '/stopped', name + '\\n'); process.exit(0); });
console.log(JSON.stringify({ level: 30, time: 0, pid: process.pid, hostname: 'h', msg: name + ' up' }));
if (name === 'gateway') {
  createServer((req, res) => res.writeHead(req.url === '/api/healthz' ? 200 : 404).end('{"status":"pass"}'))
    .listen(Number(process.env.ANVIL_HTTP_PORT), '127.0.0.1');
} else setInterval(() => {}, 1000);
if (process.env.FAKE_DIE === name) setTimeout(() => process.exit(3), 300);
// FAKE_CRASH_ONCE: die the first time only (a marker file remembers), as a passing fault would.
if (process.env.FAKE_CRASH_ONCE === name) {
  const marker = dir + '/' + name + '.crashed';
  if (!existsSync(marker)) { writeFileSync(marker, ''); setTimeout(() => process.kill(process.pid, 'SIGKILL'), 300); }
}
`;

function runSupervisor(root: string, env: NodeJS.ProcessEnv, until: RegExp) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', `import(${JSON.stringify(START_JS)}).then((m) => m.start(process.env, { root: ${JSON.stringify(root)} }))`], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const matched = new Promise<void>((resolveMatch) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (until.test(output)) resolveMatch();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
  });
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  return { child, matched, exited, output: () => output };
}

/** The supervisor said it is ready and every fake has said it is up (they start at the same time; each writes its env file first). */
const allUp = new RegExp(`^(?=[\\s\\S]*Anvil is ready at)${DEPLOYABLES.map((n) => `(?=[\\s\\S]*${n} +\\| .*${n} up)`).join('')}`);

const suite = existsSync(START_JS) ? describe : describe.skip;
suite('anvil start (fake deployables)', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'anvil-start-'));
    for (const name of DEPLOYABLES) {
      const entry = deployableEntry(name, root);
      await mkdir(resolve(entry, '..'), { recursive: true });
      await writeFile(entry, FAKE);
    }
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  async function envFor(run: string, extra: NodeJS.ProcessEnv = {}): Promise<NodeJS.ProcessEnv> {
    const dir = join(root, run);
    await mkdir(dir, { recursive: true });
    // Internal addresses of their own, so a program holding a default port cannot interfere.
    const [identity, repository, collaboration, hooks, side] = await freePorts(5);
    return {
      ANVIL_IDENTITY_ADDR: `127.0.0.1:${identity}`,
      ANVIL_REPOSITORY_ADDR: `127.0.0.1:${repository}`,
      ANVIL_COLLABORATION_ADDR: `127.0.0.1:${collaboration}`,
      ANVIL_HOOKS_ADDR: `127.0.0.1:${hooks}`,
      ANVIL_REPOSITORY_HTTP_ADDR: `127.0.0.1:${side}`,
      PATH: process.env.PATH,
      FAKE_DIR: dir,
      ANVIL_DATA_DIR: join(dir, 'data'),
      ANVIL_HTTP_PORT: String(await freePort()),
      // Set, so no embedded PostgreSQL or NATS is started; the fakes never connect.
      ANVIL_DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/anvil',
      NATS_URL: 'nats://127.0.0.1:1',
      ...extra,
    };
  }

  it('passes the resolved env, reports ready, and stops the gateway first on SIGTERM', async () => {
    const env = await envFor('ok');
    const run = runSupervisor(root, env, allUp);
    await run.matched;
    expect(run.output()).toContain(`Anvil is ready at http://localhost:${env.ANVIL_HTTP_PORT}/`);
    expect(run.output()).toMatch(/identity +\| .*identity up/);

    const token = (await readFile(join(env.ANVIL_DATA_DIR!, 'internal_token'), 'utf8')).trim();
    for (const name of DEPLOYABLES) {
      const got = JSON.parse(await readFile(join(env.FAKE_DIR!, `${name}.env.json`), 'utf8'));
      expect(got).toMatchObject({
        ANVIL_DATABASE_URL: env.ANVIL_DATABASE_URL,
        NATS_URL: env.NATS_URL,
        ANVIL__security__INTERNAL_TOKEN: token,
        ANVIL_DATA_DIR: env.ANVIL_DATA_DIR,
        // The database is `anvil`, so the events namespace is too.
        ANVIL_EVENTS_NAMESPACE: 'anvil',
      });
    }

    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const stopped = (await readFile(join(env.FAKE_DIR!, 'stopped'), 'utf8')).trim().split('\n');
    expect(stopped[0]).toBe('gateway');
    expect(stopped.slice(1).sort()).toEqual(['collaboration', 'hooks', 'identity', 'repository']);
  }, 30_000);

  it('chooses free loopback ports for the internal addresses left unset, and writes them down for anvil admin', async () => {
    const env = await envFor('chosen');
    for (const name of ['ANVIL_IDENTITY_ADDR', 'ANVIL_REPOSITORY_ADDR', 'ANVIL_COLLABORATION_ADDR', 'ANVIL_REPOSITORY_HTTP_ADDR']) delete env[name];
    const run = runSupervisor(root, env, /Anvil is ready at/);
    await run.matched;
    const got = JSON.parse(await readFile(join(env.FAKE_DIR!, 'identity.env.json'), 'utf8'));
    const written = JSON.parse(await readFile(join(env.ANVIL_DATA_DIR!, 'internal-addresses.json'), 'utf8'));
    expect(got.ANVIL_IDENTITY_ADDR).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(got.ANVIL_IDENTITY_ADDR).not.toBe('127.0.0.1:50051');
    expect(got.ANVIL_HOOKS_ADDR).toBe(env.ANVIL_HOOKS_ADDR);
    expect(written).toEqual({
      ANVIL_IDENTITY_ADDR: got.ANVIL_IDENTITY_ADDR, ANVIL_REPOSITORY_ADDR: got.ANVIL_REPOSITORY_ADDR,
      ANVIL_COLLABORATION_ADDR: got.ANVIL_COLLABORATION_ADDR, ANVIL_HOOKS_ADDR: env.ANVIL_HOOKS_ADDR,
      ANVIL_REPOSITORY_HTTP_ADDR: got.ANVIL_REPOSITORY_HTTP_ADDR,
    });
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }, 30_000);

  it('restarts a service that was killed, saying why, and keeps running', async () => {
    const env = await envFor('heal', { FAKE_CRASH_ONCE: 'identity' });
    // Ready, every fake up, and the second identity up too (so each will hear SIGTERM).
    const run = runSupervisor(root, env, new RegExp(`${allUp.source}(?=[\\s\\S]*identity restarted[\\s\\S]*identity up)`));
    await run.matched;
    expect(run.output()).toMatch(/identity was killed by SIGKILL \(its last line: .*identity up.*\); restarting it in 500 ms/);
    expect(run.output()).not.toContain('stopping Anvil');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const stopped = (await readFile(join(env.FAKE_DIR!, 'stopped'), 'utf8')).trim().split('\n');
    expect(stopped.sort()).toEqual(['collaboration', 'gateway', 'hooks', 'identity', 'repository']);
  }, 30_000);

  it('stops everything and exits non-zero when a child keeps crashing', async () => {
    const env = await envFor('die', { FAKE_DIE: 'hooks', ANVIL__security__INTERNAL_TOKEN: 'x'.repeat(32) });
    const run = runSupervisor(root, env, /stopped/);
    expect(await run.exited).toBe(1);
    expect(run.output()).toMatch(/hooks exited with code 3 \(its last line: .*\); restarting it in 500 ms/);
    expect(run.output()).toMatch(/hooks exited with code 3 \(its last line: .*\); it crashed 5 times within 60 s, a crash loop: stopping Anvil/);
    const stopped = (await readFile(join(env.FAKE_DIR!, 'stopped'), 'utf8')).trim().split('\n');
    expect(stopped.sort()).toEqual(['collaboration', 'gateway', 'identity', 'repository']);
    // A configured token is used as is and not written to disk.
    expect(existsSync(join(env.ANVIL_DATA_DIR!, 'internal_token'))).toBe(false);
  }, 30_000);

  it('names the port another program holds and the variable that moves it, and starts nothing', async () => {
    const env = await envFor('busy');
    const holder: Server = createServer();
    const port = Number(env.ANVIL_REPOSITORY_ADDR!.split(':')[1]);
    await new Promise<void>((r) => holder.listen(port, '127.0.0.1', () => r()));
    try {
      const run = runSupervisor(root, env, /$^/);
      expect(await run.exited).toBe(1);
      const lines = run.output().trim().split('\n');
      expect(lines).toEqual([expect.stringMatching(new RegExp(`^port ${port} \\(ANVIL_REPOSITORY_ADDR\\) is in use by another program: set ANVIL_REPOSITORY_ADDR=127\\.0\\.0\\.1:\\d+ or stop that program$`))]);
      expect(existsSync(join(env.FAKE_DIR!, 'identity.env.json'))).toBe(false);
    } finally {
      await new Promise<void>((r) => holder.close(() => r()));
    }
  }, 30_000);

  it('derives the events namespace from the database name unless one is set', async () => {
    const { eventsNamespaceOf } = await import('../src/commands/start.js');
    expect(eventsNamespaceOf('postgresql://postgres@127.0.0.1:5432/anvil')).toBe('anvil');
    expect(eventsNamespaceOf('postgresql://postgres@db:5432/Team-B.git')).toBe('team-b_git');
    expect(eventsNamespaceOf('postgresql://postgres@db:5432/2nd')).toBe('anvil_2nd');
  });

  it('prints a configuration error and exits 1', async () => {
    const run = runSupervisor(root, { ...(await envFor('bad')), ANVIL_HTTP_PORT: 'nope' }, /$^/);
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('ANVIL_HTTP_PORT must be a TCP port');
  }, 30_000);
});
