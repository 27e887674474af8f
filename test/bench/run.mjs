// `pnpm bench`: GET /api/v1/user with a token, measured three ways in one run, A/B in
// rounds so that all three see the same machine (notes/performance.md):
//   gateway   the real system, booted as `pnpm start` boots it (five processes),
//   baseline  one node:http process doing identity's SQL lookup itself (baseline.mjs),
//   bare hop  express → one gRPC call → a fixed reply (bare-hop.mjs).
// Uses the machine's PostgreSQL and NATS with a throwaway database prefix and events
// namespace, removed afterwards. Env: BENCH_CONNECTIONS (64), BENCH_DURATION seconds per
// measurement (10), BENCH_ROUNDS (2), BENCH_PG_URL, BENCH_NATS_URL.
import { spawn, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { connect } from 'nats';
import pg from 'pg';
import { freePorts, waitUntil } from '../../cli/dist/net.js';
import { benchUserSearch } from './user-search.mjs';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARMUP = 3;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
const here = (file) => new URL(file, import.meta.url).pathname;

const id = randomBytes(4).toString('hex');
const prefix = `anvil_bench_${id}`;
const namespace = `bench_${id}`;
const admin = { username: 'bench-admin', password: `bench-${id}-password`, email: 'bench@example.com' };
const children = [];

function databaseUrl(name) {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

function waitForMessage(child, what) {
  return new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before it listened`)));
  });
}

async function bootGateway(dataDir) {
  const [http, identity, repository, collaboration, hooks, repositoryHttp] = await freePorts(6);
  const baseUrl = `http://127.0.0.1:${http}/`;
  const env = {
    PATH: process.env.PATH, HOME: process.env.HOME,
    ANVIL_HTTP_PORT: String(http), ANVIL_ROOT_URL: baseUrl, ANVIL_DATA_DIR: dataDir,
    ANVIL_DATABASE_URL: databaseUrl(prefix), NATS_URL, ANVIL_EVENTS_NAMESPACE: namespace,
    ANVIL_IDENTITY_ADDR: `127.0.0.1:${identity}`, ANVIL_REPOSITORY_ADDR: `127.0.0.1:${repository}`,
    ANVIL_COLLABORATION_ADDR: `127.0.0.1:${collaboration}`, ANVIL_HOOKS_ADDR: `127.0.0.1:${hooks}`,
    ANVIL_REPOSITORY_HTTP_ADDR: `127.0.0.1:${repositoryHttp}`,
    ANVIL_ADMIN_USERNAME: admin.username, ANVIL_ADMIN_PASSWORD: admin.password, ANVIL_ADMIN_EMAIL: admin.email,
    ANVIL_LOG_LEVEL: 'warn',
  };
  const supervisor = spawn(process.execPath, [here('../../cli/dist/main.js'), 'start'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(supervisor);
  const exited = () => (supervisor.exitCode !== null ? `anvil start exited with ${supervisor.exitCode}` : undefined);
  await waitUntil(`${baseUrl}api/healthz`, async () => (await fetch(`${baseUrl}api/healthz`)).ok, { timeoutMs: 120_000, abort: exited });
  return { baseUrl, supervisor };
}

async function createToken(baseUrl) {
  const res = await fetch(`${baseUrl}api/v1/users/${admin.username}/tokens`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', scopes: ['read:user'] }),
  });
  if (res.status !== 201) throw new Error(`creating the token: ${res.status} ${await res.text()}`);
  return (await res.json()).sha1;
}

async function startForked(file, env, what) {
  const child = fork(here(file), [], { env: { ...process.env, ...env }, stdio: 'inherit' });
  children.push(child);
  await waitForMessage(child, what);
  return child;
}

function load(url, token, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration, headers: { authorization: `token ${token}` } }, (err, result) => {
      if (err) return reject(err);
      const failed = result.non2xx + result.errors + result.timeouts;
      if (failed) return reject(new Error(`${url}: ${failed} of ${result.requests.total} requests failed`));
      resolve({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 });
    });
  });
}

async function cleanUp(dataDir) {
  const exited = (c) => c.exitCode !== null || c.signalCode !== null;
  for (const child of children) if (!exited(child)) child.kill('SIGTERM');
  await Promise.all(children.map((c) => (exited(c) ? undefined : new Promise((r) => c.once('exit', r)))));
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  const { rows } = await client.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${prefix}\\_%`]);
  for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  await client.end();
  const nc = await connect({ servers: NATS_URL });
  const jsm = await nc.jetstreamManager();
  for await (const stream of jsm.streams.list()) {
    if (stream.config.subjects?.some((s) => s.startsWith(`${namespace}.`))) await jsm.streams.delete(stream.config.name);
  }
  await nc.close();
  await rm(dataDir, { recursive: true, force: true });
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'anvil-bench-'));
  try {
    const { baseUrl } = await bootGateway(dataDir);
    const token = await createToken(baseUrl);
    const sample = await (await fetch(`${baseUrl}api/v1/user`, { headers: { authorization: `token ${token}` } })).text();

    const [baselinePort, hopPort, hopGrpcPort] = await freePorts(3);
    await startForked('baseline.mjs', { BENCH_PORT: String(baselinePort), BENCH_DATABASE_URL: databaseUrl(`${prefix}_identity`), BENCH_ROOT_URL: baseUrl }, 'baseline');
    await startForked('bare-hop.mjs', { BENCH_PORT: String(hopPort), BENCH_GRPC_PORT: String(hopGrpcPort), BENCH_REPLY: sample }, 'bare hop');

    const targets = {
      gateway: `${baseUrl}api/v1/user`,
      baseline: `http://127.0.0.1:${baselinePort}/api/v1/user`,
      'bare hop': `http://127.0.0.1:${hopPort}/api/v1/user`,
    };
    const results = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, url] of Object.entries(targets)) {
        await load(url, token, WARMUP);
        const r = await load(url, token, DURATION);
        results[name].push(r);
        console.error(`round ${round} ${name.padEnd(9)} ${fmt(r.rps)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms`);
      }
    }

    const summary = Object.fromEntries(Object.entries(results).map(([name, rs]) => [name, {
      rps: mean(rs.map((r) => r.rps)), p50: mean(rs.map((r) => r.p50)), p99: Math.max(...rs.map((r) => r.p99)),
    }]));
    const g = summary.gateway;
    console.log(`\nGET /api/v1/user with a token, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s each`);
    console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${fmt(totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`);
    console.log('| variant | req/s | p50 ms | p99 ms | gateway ÷ variant |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [name, s] of Object.entries(summary)) {
      console.log(`| ${name} | ${fmt(s.rps)} | ${fmt(s.p50, 1)} | ${fmt(s.p99, 1)} | ${name === 'gateway' ? '—' : fmt(g.rps / s.rps, 2)} |`);
    }
    const vsBaseline = g.rps / summary.baseline.rps;
    const vsHop = g.rps / summary['bare hop'].rps;
    console.log(`\ntargets (notes/performance.md): gateway ≥ 0.3× baseline: ${fmt(vsBaseline, 2)} ${vsBaseline >= 0.3 ? 'met' : 'MISSED'}; ` +
      `≥ 0.9× bare hop: ${fmt(vsHop, 2)} ${vsHop >= 0.9 ? 'met' : 'MISSED'}; p99 ≤ 100 ms: ${fmt(g.p99, 1)} ${g.p99 <= 100 ? 'met' : 'MISSED'}`);

    for (const child of children.slice(1)) child.kill('SIGTERM'); // baseline and bare hop are done
    const search = await benchUserSearch({ baseUrl, token, identityDbUrl: databaseUrl(`${prefix}_identity`), log: (line) => console.error(line) });
    console.log('\nGET /api/v1/users/search?q=…&limit=30, page 1, one connection (mean of 300 requests)\n');
    console.log('| query | 100 users: mean / p99 ms | 100,000 users: mean / p99 ms | ratio (target ≤ 1.5) |');
    console.log('|---|---:|---:|---:|');
    for (const row of search) {
      console.log(`| ${row.kind} \`${row.q}\` | ${fmt(row.small.mean, 2)} / ${row.small.p99} | ${fmt(row.large.mean, 2)} / ${row.large.p99} | ${fmt(row.ratio, 2)} ${row.ratio <= 1.5 ? 'met' : 'MISSED'} |`);
    }
  } finally {
    await cleanUp(dataDir);
  }
}

await main();
