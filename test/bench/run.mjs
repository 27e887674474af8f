// `pnpm bench`: GET /api/v1/user and GET /api/v1/repos/{owner}/{repo} with a token, each
// measured three ways in one run, A/B in rounds so that all three see the same machine
// (notes/performance.md):
//   gateway   the real system, booted as `pnpm start` boots it (five processes),
//   baseline  one node:http process doing the service's SQL lookup itself (baseline.mjs,
//             repo-baseline.mjs),
//   bare hop  express → one gRPC call → a fixed reply (bare-hop.mjs).
// Then: cloning a ~50 MB repository through the gateway vs stock git http-backend
// (git-clone.mjs, git-backend.mjs), and page 1 of /users/search and /repos/search as the
// tables grow (user-search.mjs, repo-search.mjs).
// Then git-backed reads against a one-process cat-file reference, and a mixed workload
// over 20 repositories (git-reads.mjs, git-reference.mjs).
// Uses the machine's PostgreSQL and NATS with a throwaway database prefix and events
// namespace, removed afterwards. Env: BENCH_CONNECTIONS (64), BENCH_DURATION seconds per
// measurement (10), BENCH_ROUNDS (2), BENCH_PG_URL, BENCH_NATS_URL, BENCH_KEEP_DATA (1: keep the data directory), BENCH_NODE_OPTIONS (for the system),
// BENCH_MIXED_WRITES (the mixed workload's share of contents creates, 0.02), BENCH_MIXED_RATE
// (the paced mixed run's requests a second, 1,000; 0 skips it).
import { spawn, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { connect } from 'nats';
import pg from 'pg';
import { freePorts, waitUntil } from '../../cli/dist/net.js';
import { signPayload, streamName } from '../../services/kit/dist/index.js';
import { startCpuMeter, processTree, pidsMatching } from './cpu-time.mjs';
import { benchClone, buildCloneRepository } from './git-clone.mjs';
import { benchMigrate } from './migrate.mjs';
import { benchContents } from './contents.mjs';
import { benchHooks } from './hooks.mjs';
import { footprint, printFootprint, startWithPnpm, stopPnpm, wholeTree } from './footprint.mjs';
import { benchGitReads, benchMixed } from './git-reads.mjs';
import { benchIssueList } from './issues.mjs';
import { benchIssueSearch } from './issue-search.mjs';
import { benchPulls } from './pulls.mjs';
import { wrkLoader } from './wrk-load.mjs';
import { benchNotifications } from './notifications.mjs';
import { benchRepoSearch } from './repo-search.mjs';
import { benchUserSearch } from './user-search.mjs';
import { benchTracing, startOtlpSink } from './tracing.mjs';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARMUP = 3;
// BENCH_PARTS=user,repo,clone,search,contents,hooks,footprint,reads,mixed,issues,issue-search,pulls,migrate,tracing,notifications (all by default; user-search or repo-search for one search) runs only some parts, e.g. while profiling one.
const PARTS = new Set((process.env.BENCH_PARTS ?? 'user,repo,clone,search,contents,hooks,footprint,reads,mixed,issues,issue-search,pulls,migrate,tracing,notifications').split(','));
// BENCH_ANSWERS=0: the systems run without the gateway's answer cache, to compare with a run that has it.
const ANSWERS = process.env.BENCH_ANSWERS !== '0';
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

/** The environment of a system booted for the bench, on free ports; `suffix` tells a second system's databases and namespace apart. */
async function systemEnv(dataDir, suffix = '') {
  const [http, identity, repository, collaboration, hooks, repositoryHttp] = await freePorts(6);
  const baseUrl = `http://127.0.0.1:${http}/`;
  const env = {
    PATH: process.env.PATH, HOME: process.env.HOME,
    ANVIL_HTTP_PORT: String(http), ANVIL_ROOT_URL: baseUrl, ANVIL_DATA_DIR: dataDir,
    ANVIL_DATABASE_URL: databaseUrl(`${prefix}${suffix}`), NATS_URL, ANVIL_EVENTS_NAMESPACE: `${namespace}${suffix}`,
    ANVIL_IDENTITY_ADDR: `127.0.0.1:${identity}`, ANVIL_REPOSITORY_ADDR: `127.0.0.1:${repository}`,
    ANVIL_COLLABORATION_ADDR: `127.0.0.1:${collaboration}`, ANVIL_HOOKS_ADDR: `127.0.0.1:${hooks}`,
    ANVIL_REPOSITORY_HTTP_ADDR: `127.0.0.1:${repositoryHttp}`,
    ANVIL_ADMIN_USERNAME: admin.username, ANVIL_ADMIN_PASSWORD: admin.password, ANVIL_ADMIN_EMAIL: admin.email,
    ANVIL_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    // e.g. BENCH_NODE_OPTIONS="--require $PWD/test/bench/cpu-profile.cjs" to profile every process
    // (Node 20 refuses --cpu-prof in NODE_OPTIONS).
    ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
    ...(process.env.BENCH_PROFILE_DIR ? { BENCH_PROFILE_DIR: process.env.BENCH_PROFILE_DIR } : {}),
    ...(process.env.BENCH_PROFILE_INTERVAL_US ? { BENCH_PROFILE_INTERVAL_US: process.env.BENCH_PROFILE_INTERVAL_US } : {}),
    // e.g. BENCH_OTLP_ENDPOINT=http://127.0.0.1:4318 to trace every request (spans over OTLP/HTTP).
    ...(process.env.BENCH_OTLP_ENDPOINT ? { OTEL_EXPORTER_OTLP_ENDPOINT: process.env.BENCH_OTLP_ENDPOINT } : {}),
    // e.g. BENCH_GLIBC_TUNABLES=glibc.malloc.arena_max=2 to try allocator settings on every process.
    ...(process.env.BENCH_GLIBC_TUNABLES ? { GLIBC_TUNABLES: process.env.BENCH_GLIBC_TUNABLES } : {}),
    // ANVIL_REPOSITORY_CACHE_TTL_MS=0 measures GET /repos without the gateway's cache.
    ...(process.env.ANVIL_REPOSITORY_CACHE_TTL_MS ? { ANVIL_REPOSITORY_CACHE_TTL_MS: process.env.ANVIL_REPOSITORY_CACHE_TTL_MS } : {}),
    // BENCH_ANSWERS=0 measures every read without the gateway's answer cache (caches/answers.ts).
    ...(ANSWERS ? {} : { ANVIL_ANSWER_CACHE_TTL_MS: '0' }),
    // The hooks part delivers to receivers on this machine.
    ...(PARTS.has('hooks') ? { ANVIL__webhook__ALLOWED_HOST_LIST: 'loopback' } : {}),
    // BENCH_HOOKS_CONSUMERS=4 measures with four event pullers per hooks process.
    ...(process.env.BENCH_HOOKS_CONSUMERS ? { ANVIL__webhook__CONSUMERS: process.env.BENCH_HOOKS_CONSUMERS } : {}),
    // The migrate part imports from git http-backend on this machine.
    ...(PARTS.has('migrate') ? { ANVIL__migrations__ALLOW_LOCALNETWORKS: 'true' } : {}),
  };
  return { env, baseUrl, repositoryHttpAddress: `127.0.0.1:${repositoryHttp}` };
}

/** Boots a system as `pnpm start` does; `root`: another built checkout to boot instead of this one (BENCH_AB_ROOT, BENCH_COMPARE_ROOT). */
async function bootGateway(dataDir, suffix = '', extraEnv = {}, root = here('../..')) {
  const { env: baseEnv, baseUrl, repositoryHttpAddress } = await systemEnv(dataDir, suffix);
  const env = { ...baseEnv, ...extraEnv };
  const supervisor = spawn(process.execPath, [join(root, 'cli/dist/main.js'), 'start'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  children.push(supervisor);
  const exited = () => (supervisor.exitCode !== null ? `anvil start exited with ${supervisor.exitCode}` : undefined);
  await waitUntil(`${baseUrl}api/healthz`, async () => (await fetch(`${baseUrl}api/healthz`)).ok, { timeoutMs: 120_000, abort: exited });
  return { baseUrl, supervisor, repositoryHttpAddress };
}

async function createToken(baseUrl) {
  const res = await fetch(`${baseUrl}api/v1/users/${admin.username}/tokens`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', scopes: ['write:user', 'write:repository', 'write:issue'] }),
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

async function stopForked(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

// `client` is the CPU this process (autocannon, on the same 2 cores as the system) spent per
// answer and `bytes` the size of an answer: for large answers the load generator's own parsing
// is a part of the machine the system does not get.
// `headers` are sent beside the token (e.g. the `accept-encoding: gzip` Go's client sends).
function load(url, token, duration, headers = {}) {
  return new Promise((resolve, reject) => {
    const cpuBefore = process.cpuUsage();
    autocannon({ url, connections: CONNECTIONS, duration, headers: { ...headers, authorization: `token ${token}` } }, (err, result) => {
      if (err) return reject(err);
      const failed = result.non2xx + result.errors + result.timeouts;
      if (failed) return reject(new Error(`${url}: ${failed} of ${result.requests.total} requests failed`));
      const cpu = process.cpuUsage(cpuBefore);
      const requests = result.requests.total;
      resolve({
        rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests,
        client: (cpu.user + cpu.system) / Math.max(1, requests), bytes: result.throughput.total / Math.max(1, requests),
      });
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
    if (stream.config.subjects?.some((s) => s.startsWith(`${namespace}.`) || s.startsWith(`${namespace}_fp.`) || s.startsWith(`${namespace}_tr.`) || s.startsWith(`${namespace}_cmp.`) || s.startsWith(`${namespace}_ab`))) await jsm.streams.delete(stream.config.name);
  }
  await nc.close();
  // BENCH_KEEP_DATA=1 leaves the data directory (to look at afterwards, and because deleting
  // its files slows the creation of new ones for minutes on these VMs: git-reads.mjs,
  // fileCreationMicros), saying where it is.
  if (process.env.BENCH_KEEP_DATA === '1') console.log(`data directory kept: ${dataDir}`);
  else await rm(dataDir, { recursive: true, force: true });
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const machine = () => `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${fmt(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load ${loadavg().map((l) => fmt(l, 1)).join(' ')}; gateway answer cache ${ANSWERS ? 'on' : 'off (BENCH_ANSWERS=0)'}`;

/** Gateway, baseline and bare hop in ROUNDS rounds (A/B), printed as one markdown table. */
// `cpu` (optional): name → { node: () => pids, pg: () => pids } for the CPU-per-request columns.
async function compareThreeWays(title, targets, token, cpu = {}) {
  const results = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
  // A first warm-up of every target before any round: a route's first seconds (JIT, pools,
  // prepared statements, the credential cache) should not land in round 1 of one variant only.
  for (const url of Object.values(targets)) await load(url, token, WARMUP);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, url] of Object.entries(targets)) {
      await load(url, token, WARMUP);
      const stopMeter = await startCpuMeter(cpu[name] ?? {});
      const r = await load(url, token, DURATION);
      r.cpu = await stopMeter(r.requests);
      results[name].push(r);
      const cpuText = Object.entries(r.cpu).map(([k, us]) => `${k} ${fmt(us)} µs`).join(', ');
      console.error(`round ${round} ${name.padEnd(9)} ${fmt(r.rps)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms${cpuText ? `  CPU/req: ${cpuText}` : ''}`);
    }
  }
  const summary = Object.fromEntries(Object.entries(results).map(([name, rs]) => [name, {
    rps: mean(rs.map((r) => r.rps)), p50: mean(rs.map((r) => r.p50)), p99: Math.max(...rs.map((r) => r.p99)),
    node: mean(rs.map((r) => r.cpu.node ?? NaN)), pg: mean(rs.map((r) => r.cpu.pg ?? NaN)),
  }]));
  const g = summary.gateway;
  console.log(`\n${title} with a token, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s each`);
  console.log(`${machine()}\n`);
  console.log('| variant | req/s | p50 ms | p99 ms | gateway ÷ variant | CPU µs/req: node | PostgreSQL |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  const us = (n) => (Number.isNaN(n) ? '–' : fmt(n));
  for (const [name, s] of Object.entries(summary)) {
    console.log(`| ${name} | ${fmt(s.rps)} | ${fmt(s.p50, 1)} | ${fmt(s.p99, 1)} | ${name === 'gateway' ? '—' : fmt(g.rps / s.rps, 2)} | ${us(s.node)} | ${us(s.pg)} |`);
  }
  const vsBaseline = g.rps / summary.baseline.rps;
  const vsHop = g.rps / summary['bare hop'].rps;
  console.log(`\ntargets (notes/performance.md): gateway ≥ 0.3× baseline: ${fmt(vsBaseline, 2)} ${vsBaseline >= 0.3 ? 'met' : 'MISSED'}; ` +
    `≥ 0.9× bare hop: ${fmt(vsHop, 2)} ${vsHop >= 0.9 ? 'met' : 'MISSED'}; p99 ≤ 100 ms: ${fmt(g.p99, 1)} ${g.p99 <= 100 ? 'met' : 'MISSED'}`);
}

async function getJson(url, token) {
  const res = await fetch(url, { headers: token ? { authorization: `token ${token}` } : {} });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return res.text();
}

function printSearch(title, sizes, rows) {
  console.log(`\n${title}, page 1, one connection (mean of 300 requests)\n`);
  console.log(`| query | ${sizes[0]}: mean / p99 ms | ${sizes[1]}: mean / p99 ms | ratio (target ≤ 1.5) |`);
  console.log('|---|---:|---:|---:|');
  for (const row of rows) {
    console.log(`| ${row.kind} \`${row.q}\` | ${fmt(row.small.mean, 2)} / ${row.small.p99} | ${fmt(row.large.mean, 2)} / ${row.large.p99} | ${fmt(row.ratio, 2)} ${row.ratio <= 1.5 ? 'met' : 'MISSED'} |`);
  }
}

/** PostgreSQL backends serving the run's databases (only the variant under load is busy); `suffix`: one system's only. */
async function runBackends(suffix) {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    const { rows } = suffix === undefined
      ? await client.query(`SELECT pid FROM pg_stat_activity WHERE datname LIKE $1`, [`${prefix}\\_%`])
      : await client.query(`SELECT pid FROM pg_stat_activity WHERE datname ~ $1`, [`^${prefix}${suffix}_[a-z]+$`]);
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}

/** A process's command line ('' once it is gone). */
function commandOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** The CPU groups of the three variants: the whole system (every service), or a forked reference with its children. */
function cpuGroups(supervisor, [baseline, hop]) {
  return {
    gateway: { node: () => processTree(supervisor.pid), pg: runBackends },
    baseline: { node: () => processTree(baseline.pid), pg: runBackends },
    'bare hop': { node: () => processTree(hop.pid) },
  };
}

/** GET /user: gateway vs identity's one-file baseline vs the bare hop. */
async function benchUserGet({ baseUrl, token, userJson, supervisor }) {
  const [baselinePort, hopPort, hopGrpcPort] = await freePorts(3);
  const forked = [
    await startForked('baseline.mjs', { BENCH_PORT: String(baselinePort), BENCH_DATABASE_URL: databaseUrl(`${prefix}_identity`), BENCH_ROOT_URL: baseUrl }, 'baseline'),
    await startForked('bare-hop.mjs', { BENCH_PORT: String(hopPort), BENCH_GRPC_PORT: String(hopGrpcPort), BENCH_REPLY: userJson }, 'bare hop'),
  ];
  await compareThreeWays('GET /api/v1/user', {
    gateway: `${baseUrl}api/v1/user`,
    baseline: `http://127.0.0.1:${baselinePort}/api/v1/user`,
    'bare hop': `http://127.0.0.1:${hopPort}/api/v1/user`,
  }, token, cpuGroups(supervisor, forked));
  for (const child of forked) await stopForked(child);
}

/** GET /repos/{owner}/{repo}: gateway vs repository's one-file baseline vs the bare hop. */
async function benchRepoGet({ baseUrl, token, viewerId, log, supervisor }) {
  const created = await fetch(`${baseUrl}api/v1/user/repos`, {
    method: 'POST', headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench-get', description: 'a repository to read', private: false }),
  });
  if (created.status !== 201) throw new Error(`creating bench-get: ${created.status} ${await created.text()}`);
  const repoPath = `api/v1/repos/${admin.username}/bench-get`;
  const repoJson = await getJson(`${baseUrl}${repoPath}`, token);
  const [repoBaselinePort, repoHopPort, repoHopGrpcPort] = await freePorts(3);
  const forked = [
    await startForked('repo-baseline.mjs', {
      BENCH_PORT: String(repoBaselinePort), BENCH_DATABASE_URL: databaseUrl(`${prefix}_repository`), BENCH_ROOT_URL: baseUrl,
      BENCH_TEMPLATE: repoJson, BENCH_VIEWER_ID: viewerId,
    }, 'repository baseline'),
    await startForked('bare-hop.mjs', { BENCH_PORT: String(repoHopPort), BENCH_GRPC_PORT: String(repoHopGrpcPort), BENCH_REPLY: repoJson }, 'bare hop'),
  ];
  const baselineJson = await getJson(`http://127.0.0.1:${repoBaselinePort}/${repoPath}`, token);
  if (baselineJson.length !== repoJson.length) log(`note: baseline JSON is ${baselineJson.length} bytes, the gateway's ${repoJson.length}`);
  await compareThreeWays('GET /api/v1/repos/{owner}/{repo}', {
    gateway: `${baseUrl}${repoPath}`,
    baseline: `http://127.0.0.1:${repoBaselinePort}/${repoPath}`,
    'bare hop': `http://127.0.0.1:${repoHopPort}/${repoPath}`,
  }, token, cpuGroups(supervisor, forked));
  for (const child of forked) await stopForked(child);
}

/** POST /repos/migrate of a ~50 MB repository vs `git clone --mirror` of the same source (migrate.mjs). */
async function benchMigration({ baseUrl, token, dataDir, log }) {
  const gitRoot = join(dataDir, 'repositories');
  const sourceName = 'bench-migrate-source';
  const packBytes = await buildCloneRepository({ baseUrl, token, gitDir: join(gitRoot, admin.username, `${sourceName}.git`), name: sourceName });
  const [backendPort] = await freePorts(1);
  const backend = await startForked('git-backend.mjs', { BENCH_PORT: String(backendPort), BENCH_GIT_ROOT: gitRoot }, 'git http-backend');
  try {
    const sourceUrl = `http://127.0.0.1:${backendPort}/${admin.username}/${sourceName}.git`;
    const r = await benchMigrate({ baseUrl, token, sourceUrl, log });
    console.log(`\nmigrating a ${fmt(packBytes / 2 ** 20, 1)} MiB repository from git http-backend, median of ${r.migrate.length} each (A/B, after a warm-up)`);
    console.log('| how | median s | best s |');
    console.log('|---|---|---|');
    console.log(`| POST /repos/migrate | ${fmt(r.median(r.migrate), 2)} | ${fmt(Math.min(...r.migrate), 2)} |`);
    console.log(`| git clone --mirror | ${fmt(r.median(r.mirrorClone), 2)} | ${fmt(Math.min(...r.mirrorClone), 2)} |`);
    console.log(`\ntarget: migration ≤ 1.3× git clone --mirror: ${fmt(r.ratio, 2)}× ${r.ratio <= 1.3 ? 'met' : 'MISSED'} (median of each round's ratio: ${fmt(r.paired, 2)}×)`);
  } finally {
    await stopForked(backend);
  }
}

/** git clone through the gateway vs stock git http-backend on the same bare repository. */
async function benchGitClone({ baseUrl, token, dataDir, repositoryHttpAddress, viewerId, log, supervisor }) {
  const gitRoot = join(dataDir, 'repositories');
  const cloneName = 'bench-clone';
  const packBytes = await buildCloneRepository({ baseUrl, token, gitDir: join(gitRoot, admin.username, `${cloneName}.git`), name: cloneName });
  const [backendPort] = await freePorts(1);
  const backend = await startForked('git-backend.mjs', { BENCH_PORT: String(backendPort), BENCH_GIT_ROOT: gitRoot }, 'git http-backend');
  const gatewayUrl = new URL(`${admin.username}/${cloneName}.git`, baseUrl);
  gatewayUrl.username = admin.username;
  gatewayUrl.password = token;
  // The middle column splits the gateway's cost from the repository service's: the service's
  // git side channel cloned directly, with a grant signed as the gateway would sign it.
  const secret = (await readFile(join(dataDir, 'internal_token'), 'utf8')).trim();
  const { id: repositoryId } = JSON.parse(await getJson(`${baseUrl}api/v1/repos/${admin.username}/${cloneName}`, token));
  const grant = () => signPayload({
    caller: { userId: Number(viewerId), login: admin.username, isAdmin: true, restricted: false, scopes: [] },
    repositoryId, owner: admin.username, name: cloneName, permission: 'owner', expires: Date.now() + 600_000,
  }, secret);
  // Server CPU per clone: Anvil's processes (the idle ones add next to nothing), or the
  // CGI wrapper; each with the git processes it ran.
  const anvil = () => processTree(supervisor.pid);
  const clone = await benchClone({
    urls: {
      gateway: { url: gatewayUrl.toString(), pids: anvil },
      'repository service': { url: `http://${repositoryHttpAddress}/${admin.username}/${cloneName}`, headers: () => [`x-anvil-git-grant: ${grant()}`], pids: anvil },
      'git http-backend': { url: `http://127.0.0.1:${backendPort}/${admin.username}/${cloneName}.git`, pids: () => processTree(backend.pid) },
    },
    log,
  });
  await stopForked(backend);
  const cloneRatio = clone['git http-backend'].median / clone.gateway.median;
  console.log(`\ngit clone --bare of a ${fmt(packBytes / 2 ** 20, 1)} MiB repository, median of ${clone.gateway.seconds.length} clones each (A/B, after a warm-up clone)`);
  console.log(`${machine()}\n`);
  console.log('| server | median s | best s | speed vs git http-backend (medians) | server CPU per clone, ms |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, r] of Object.entries(clone)) {
    const cpu = r.cpuMs === undefined ? '–' : fmt(r.cpuMs, 0);
    console.log(`| ${name} | ${fmt(r.median, 2)} | ${fmt(r.best, 2)} | ${fmt(clone['git http-backend'].median / r.median, 2)}× | ${cpu} |`);
  }
  console.log(`\ntarget: gateway ≥ 0.9× git http-backend: ${fmt(cloneRatio, 2)} ${cloneRatio >= 0.9 ? 'met' : 'MISSED'}`);
}

/** Page 1 of /users/search and /repos/search as their tables grow. */
async function benchSearches({ baseUrl, token, log }) {
  if (PARTS.has('search') || PARTS.has('user-search')) {
    const users = await benchUserSearch({ baseUrl, token, identityDbUrl: databaseUrl(`${prefix}_identity`), log });
    printSearch('GET /api/v1/users/search?q=…&limit=30 with a token', ['100 users', '100,000 users'], users);
  }
  if (!PARTS.has('search') && !PARTS.has('repo-search')) return;
  const repos = await benchRepoSearch({ baseUrl, repositoryDbUrl: databaseUrl(`${prefix}_repository`), log });
  printSearch('GET /api/v1/repos/search?q=…&limit=30, anonymous', ['100 repositories', '10,000 repositories'], repos);
}

/** Contents create vs the raw plumbing it runs, and 64 concurrent creates on one branch (contents.mjs). */
async function benchContentWrites({ baseUrl, token, dataDir, log }) {
  const r = await benchContents({ baseUrl, token, owner: admin.username, gitRoot: join(dataDir, 'repositories'), log });
  const ratio = r.apiP50 / r.rawP50;
  console.log(`\nPOST /api/v1/repos/{owner}/{repo}/contents/{path} (one new file, one connection) vs the same git plumbing run directly, ${r.samples} creates each (A/B)`);
  console.log(`${machine()}\n`);
  console.log('| variant | p50 ms |');
  console.log('|---|---:|');
  console.log(`| API create | ${fmt(r.apiP50, 1)} |`);
  console.log(`| raw plumbing (child_process) | ${fmt(r.rawP50, 1)} |`);
  console.log(`\ntarget: API ≤ 2× raw plumbing: ${fmt(ratio, 2)}× ${ratio <= 2 ? 'met' : 'MISSED'}`);
  const lost = r.landed - r.commitsAdded;
  console.log(`\n${r.concurrent} concurrent creates of different files on one branch: ${r.landed} landed (201), ${r.conflicts} clean 409, ${r.other} other; ` +
    `commits added ${r.commitsAdded}, lost ${lost}: ${r.other === 0 && lost === 0 ? 'met' : 'MISSED'}`);
}

/**
 * Resolves once every durable consumer of the run's stream has nothing pending and nothing
 * unacknowledged (at most 5 minutes: past that the timed merge runs anyway, and says so).
 */
async function eventsCaughtUp(natsUrl, ns) {
  const nc = await connect({ servers: natsUrl });
  try {
    const jsm = await nc.jetstreamManager();
    const stream = streamName(ns);
    const deadline = Date.now() + 300_000;
    // Twice in a row: an event still in an outbox reaches the stream a moment later.
    for (let idleChecks = 0; ;) {
      let behind = 0;
      for await (const consumer of jsm.consumers.list(stream)) behind += consumer.num_pending + consumer.num_ack_pending;
      idleChecks = behind === 0 ? idleChecks + 1 : 0;
      if (idleChecks === 2) return;
      if (Date.now() > deadline) return void console.log(`(events consumers still ${behind} behind after 5 minutes)`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    await nc.close();
  }
}

/** Listing 50 of 3,000 pulls, and 16 concurrent merges into one base (pulls.mjs). */
async function benchPullRequests({ baseUrl, token, dataDir, log, supervisor }) {
  // CPU per listed page of each process: where a page's cost goes (gateway, collaboration, PostgreSQL).
  const processes = () => processTree(supervisor.pid);
  const r = await benchPulls({
    baseUrl, token, owner: admin.username, gitRoot: join(dataDir, 'repositories'), collaborationDbUrl: databaseUrl(`${prefix}_collaboration`),
    load, wrkLoad: wrkLoader(CONNECTIONS), duration: DURATION, log, idle: () => eventsCaughtUp(NATS_URL, namespace),
    cpuMeter: () => startCpuMeter({
      gateway: async () => processes().filter((pid) => commandOf(pid).includes('gateway/dist')),
      collaboration: async () => processes().filter((pid) => commandOf(pid).includes('services/collaboration')),
      repository: async () => processes().filter((pid) => commandOf(pid).includes('services/repository')),
      postgres: runBackends,
    }),
  });
  console.log(`\nGET /api/v1/repos/{owner}/{repo}/pulls?limit=50 of a repository with ${r.pulls} pull requests, ${CONNECTIONS} connections, ${DURATION} s`);
  console.log(`${machine()}\n`);
  console.log('| client asks for | req/s | p50 ms | p99 ms | CPU µs per page | load generator µs, KiB per page |');
  console.log('|---|---:|---:|---:|---|---:|');
  const rows = [['gzip (as Go\'s net/http, browsers)', r.gzipList], ['no encoding', r.list], ...(r.wrkList ? [['no encoding, load from wrk', r.wrkList]] : [])];
  for (const [what, list] of rows) {
    const cpu = list.cpu ? Object.entries(list.cpu).map(([k, us]) => `${k} ${fmt(us)}`).join(', ') : '';
    console.log(`| ${what} | ${fmt(list.rps)} | ${fmt(list.p50, 1)} | ${fmt(list.p99, 1)} | ${cpu} | ${fmt(list.client)}, ${fmt(list.bytes / 1024)} |`);
  }
  console.log('(the load generator, autocannon unless named, runs on the same cores and does not unpack gzip; wrk is measured when installed)');
  for (const [what, list] of rows) {
    console.log(`target, ${what}: p50 ≤ 50 ms, p99 ≤ 100 ms: ${list.p50 <= 50 && list.p99 <= 100 ? 'met' : 'MISSED'}`);
  }
  console.log(`\n${r.merges} concurrent merges of different pulls into one base: ${r.landed} landed (200), ${r.conflicts} clean 409, ${r.other} other; ` +
    `landed heads missing from the base: ${r.lost}: ${r.other === 0 && r.lost === 0 ? 'met' : 'MISSED'}`);
  if (!r.big.runs) return;
  const ratio = r.big.apiP50 / r.big.rawP50;
  console.log(`
Merge of a pull with ${r.big.commits} commits, p50 of ${r.big.runs}${r.big.idle ? ', each once every event consumer had caught up' : ''}: POST /pulls/{index}/merge ${fmt(r.big.apiP50, 1)} ms, ` +
    `raw merge-tree beside rev-list --count, then commit-tree + update-ref ${fmt(r.big.rawP50, 1)} ms: ${fmt(ratio, 2)}× (target ≤ 2×: ${ratio <= 2 ? 'met' : 'MISSED'})` +
    (r.big.countP50 === undefined ? '' : `; the count alone, run afterwards: ${fmt(r.big.countP50, 1)} ms`));
  if (r.big.idle) {
    console.log(`the same merges started at once, while the previous merge's re-checks of the base's open pulls ran: p50 ${fmt(r.big.busyP50, 1)} ms against ${fmt(r.big.rawBusyP50, 1)} raw, timed the same way (${fmt(r.big.busyP50 / r.big.rawBusyP50, 2)}×); ` +
      `catching up took ${fmt(r.big.idleWaitMs / 1000, 1)} s over the waiting runs`);
  }
}

/** Webhook delivery latency at a steady rate, and throughput beside a slow receiver (hooks.mjs). */
async function benchWebhooks({ baseUrl, token, log }) {
  const r = await benchHooks({ baseUrl, token, owner: admin.username, natsUrl: NATS_URL, namespace, hooksDbUrl: databaseUrl(`${prefix}_hooks`), log });
  console.log(`\nWebhook delivery: push events published on the stream → POST received by a local receiver`);
  console.log(`${machine()}\n`);
  console.log('| measurement | events | delivered | p50 ms | p99 ms | rate |');
  console.log('|---|---:|---:|---:|---:|---:|');
  console.log(`| steady, one hook | ${r.steady.events} | ${r.steady.delivered} | ${fmt(r.steady.p50, 1)} | ${fmt(r.steady.p99, 1)} | ${process.env.BENCH_HOOKS_RATE ?? 200} events/s offered |`);
  console.log(`| burst, 3 fast hooks beside one answering in 1 s | ${r.burst.events} × 3 | ${r.burst.fastDelivered} | ${fmt(r.burst.fastP50, 1)} | ${fmt(r.burst.fastP99, 1)} | ${fmt(r.burst.fastPerSecond, 0)} deliveries/s |`);
  console.log(`\nthe slow hook meanwhile: ${r.burst.slowDelivered} of ${r.burst.events} delivered in ${fmt(r.burst.fastSeconds, 1)} s (at most [webhook] MAX_PER_HOST at a time)`);
}

/**
 * Footprint: a system of its own booted with `pnpm start` (what a user runs), its tree's RSS
 * per process once idle, then after GET /user and GET /repos/{owner}/{repo} under load
 * (their req/s are printed too, so a smaller footprint is seen not to cost throughput).
 */
async function benchFootprint({ dataDir, log }) {
  const { env, baseUrl } = await systemEnv(join(dataDir, 'footprint'), '_fp');
  const pnpm = await startWithPnpm({ env: { ...env, ANVIL_LOG_LEVEL: 'warn' }, cwd: here('../..'), baseUrl, waitUntil });
  try {
    // Start-up garbage and lazy first requests settle; nothing else runs in the system.
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const idle = footprint(pnpm.pid);
    const token = await createToken(baseUrl);
    const created = await fetch(`${baseUrl}api/v1/user/repos`, {
      method: 'POST', headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'footprint', auto_init: true }),
    });
    if (created.status !== 201) throw new Error(`creating footprint: ${created.status} ${await created.text()}`);
    // CPU per request of the whole tree: the figure that tells whether a leaner process costs
    // throughput on a shared machine, where req/s swing with the neighbours.
    const measured = async (url) => {
      const stopMeter = await startCpuMeter({ node: () => wholeTree(pnpm.pid) });
      const r = await load(url, token, DURATION);
      r.cpu = (await stopMeter(r.requests)).node;
      return r;
    };
    const user = await measured(`${baseUrl}api/v1/user`);
    const repo = await measured(`${baseUrl}api/v1/repos/${admin.username}/footprint`);
    const contents = await measured(`${baseUrl}api/v1/repos/${admin.username}/footprint/contents/README.md`);
    log(`footprint load: GET /user ${fmt(user.rps)} req/s, GET /repos/{o}/{r} ${fmt(repo.rps)} req/s, GET contents ${fmt(contents.rps)} req/s`);
    const loaded = footprint(pnpm.pid);
    printFootprint(idle, loaded, {
      fmt, machine,
      loadText: `${DURATION} s each at ${CONNECTIONS} connections of GET /user (${fmt(user.rps)} req/s, ${fmt(user.cpu)} µs CPU/req), ` +
        `GET /repos/{owner}/{repo} (${fmt(repo.rps)} req/s, ${fmt(repo.cpu)} µs) and GET contents (${fmt(contents.rps)} req/s, ${fmt(contents.cpu)} µs; CPU of the node processes)`,
    });
  } finally {
    await stopPnpm(pnpm);
  }
}

/** The CPU groups of one booted system: its gateway, collaboration, every other node process, and its PostgreSQL backends. */
function systemCpuGroups(supervisor, suffix) {
  const gateway = /gateway\/dist\/main\.js/;
  const collaboration = /services\/collaboration\/dist\/main\.js/;
  return {
    gateway: () => pidsMatching(supervisor.pid, gateway),
    collaboration: () => pidsMatching(supervisor.pid, collaboration),
    'other node': () => pidsMatching(supervisor.pid, /(gateway|services\/collaboration)\/dist\/main\.js/, true),
    pg: () => runBackends(suffix),
  };
}

/**
 * BENCH_AB_ROOT=/path/to/another/checkout[,another] (built): the issue list is also measured
 * on a system booted from each, named B, C, …, in alternation with this one (A), so a change
 * is compared with its base on the same machine at the same time (CPU µs/request).
 */
async function abSystems(dataDir) {
  const roots = (process.env.BENCH_AB_ROOT ?? '').split(',').filter(Boolean);
  const systems = [];
  for (const [i, root] of roots.entries()) {
    const name = String.fromCharCode(66 + i);
    const suffix = `_ab${name.toLowerCase()}`;
    const { baseUrl, supervisor } = await bootGateway(join(dataDir, `ab${name}`), suffix, {}, root);
    systems.push({ name, baseUrl, token: await createToken(baseUrl), collaborationDbUrl: databaseUrl(`${prefix}${suffix}_collaboration`), cpu: systemCpuGroups(supervisor, suffix) });
  }
  return systems;
}

/** Page 1 of a repository's issue list with 100 issues and with 100,000 (issues.mjs). */
async function benchIssues({ systems, log }) {
  const bySystem = await benchIssueList({ systems, owner: admin.username, connections: CONNECTIONS, duration: DURATION, rounds: ROUNDS, log, startCpuMeter });
  console.log(`\nGET /api/v1/repos/{owner}/{repo}/issues (page 1: 30 open issues with poster, labels, milestone) with a token, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s each`);
  console.log(`${machine()}${systems.length > 1 ? `; A = this checkout, B, C, … = ${process.env.BENCH_AB_ROOT}, measured in alternation` : ''}\n`);
  console.log('| system | repository | req/s | p50 ms | p99 ms | CPU µs/req: gateway | collaboration | other node | PostgreSQL |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const [name, r] of Object.entries(bySystem)) {
    for (const [size, label] of [['small', '100 issues'], ['large', '100,000 issues']]) {
      const s = r[size];
      console.log(`| ${name} | ${label} | ${fmt(s.rps)} | ${fmt(s.p50, 1)} | ${fmt(s.p99, 1)} | ${fmt(s.cpu.gateway)} | ${fmt(s.cpu.collaboration)} | ${fmt(s.cpu['other node'])} | ${fmt(s.cpu.pg)} |`);
    }
  }
  const r = bySystem.A;
  const ratio = r.large.p50 / r.small.p50;
  console.log(`\ntargets (A): 100,000 issues within 1.5× the time of 100 (p50): ${fmt(ratio, 2)}× ${ratio <= 1.5 ? 'met' : 'MISSED'}; ` +
    `p99 ≤ 100 ms: ${fmt(r.large.p99, 1)} ${r.large.p99 <= 100 ? 'met' : 'MISSED'}`);
}

/** GET /repos/issues/search for a user who sees 1,000 repositories (issue-search.mjs). */
async function benchIssueSearchPart({ baseUrl, log, supervisor }) {
  const adminBasic = `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`;
  // Fewer connections than the other parts by default (BENCH_SEARCH_CONNECTIONS): the issue sets no load for it, only p50/p99.
  const connections = Number(process.env.BENCH_SEARCH_CONNECTIONS ?? 8);
  const r = await benchIssueSearch({
    baseUrl, adminBasic, collaborationDbUrl: databaseUrl(`${prefix}_collaboration`), connections, duration: DURATION, rounds: ROUNDS, log,
    supervisorPid: supervisor.pid, postgresBackends: () => runBackends(),
  });
  console.log(`\nGET /api/v1/repos/issues/search (page 1: 30 of ${r.total} open issues in the ${r.repositories} repositories a user — not an admin — sees) with their token, ${connections} connections, ${ROUNDS} rounds of ${DURATION} s each`);
  console.log(`${machine()}\n`);
  console.log('| search | req/s | p50 ms | p99 ms | failed or > 60 s |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(`| ${r.repositories} repositories | ${fmt(r.rps)} | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${r.failed} |`);
  console.log(`\none request at a time: p50 ${fmt(r.aloneP50, 1)} ms, slowest of 20 ${fmt(r.aloneMax, 1)} ms`);
  if (r.cpu) console.log(`CPU per search under the load, ms: ${Object.entries(r.cpu).map(([name, us]) => `${name} ${fmt(us / 1000, 1)}`).join(', ')}`);
}

/** Comment → notification lag at a steady rate, and GET /notifications with 10 vs 10,000 threads (notifications.mjs). */
async function benchNotificationParts({ baseUrl, token, log, supervisor }) {
  const r = await benchNotifications({
    baseUrl, token, admin, owner: admin.username, collaborationDbUrl: databaseUrl(`${prefix}_collaboration`), connections: CONNECTIONS, duration: DURATION, rounds: ROUNDS, log,
    supervisorPid: supervisor.pid, postgresBackends: () => runBackends(),
  });
  console.log(`\nIssue comment → its notification thread (collaboration's consumer): ${r.lag.scheduled} comments scheduled at ${r.lag.rate}/s, each on its own issue; ` +
    `${r.lag.comments} answered (${fmt(r.lag.answeredRate, 1)}/s), ${r.lag.retried} POSTs retried after a 503, ${r.lag.failed} failed and left out`);
  console.log(`${machine()}\n`);
  console.log('| threads written | p50 ms | p99 ms | max ms |');
  console.log('|---:|---:|---:|---:|');
  console.log(`| ${r.lag.threads} of ${r.lag.comments} | ${fmt(r.lag.p50, 0)} | ${fmt(r.lag.p99, 0)} | ${fmt(r.lag.max, 0)} |`);
  if (r.lag.cpu) console.log(`\nCPU per answered comment, its thread included, ms: ${Object.entries(r.lag.cpu).map(([name, us]) => `${name} ${fmt(us / 1000, 1)}`).join(', ')}`);
  const ratio = r.list.large.p50 / r.list.small.p50;
  console.log(`\nGET /api/v1/notifications (page 1: 30 threads with their repository) with a token, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION} s each\n`);
  console.log('| user | req/s | p50 ms | p99 ms |');
  console.log('|---|---:|---:|---:|');
  console.log(`| 10 threads | ${fmt(r.list.small.rps)} | ${fmt(r.list.small.p50, 1)} | ${fmt(r.list.small.p99, 1)} |`);
  console.log(`| 10,000 threads | ${fmt(r.list.large.rps)} | ${fmt(r.list.large.p50, 1)} | ${fmt(r.list.large.p99, 1)} |`);
  console.log(`\ntarget: 10,000 threads within 1.5× the time of 10 (p50): ${fmt(ratio, 2)}× ${ratio <= 1.5 ? 'met' : 'MISSED'}`);
}

async function main() {
  const dataDir = await mkdtemp(join(tmpdir(), 'anvil-bench-'));
  try {
    if (PARTS.has('footprint')) await benchFootprint({ dataDir, log: (line) => console.error(line) });
    if ([...PARTS].every((part) => part === 'footprint')) return;
    const { baseUrl, repositoryHttpAddress, supervisor } = await bootGateway(dataDir);
    const token = await createToken(baseUrl);
    const log = (line) => console.error(line);
    const userJson = await getJson(`${baseUrl}api/v1/user`, token);
    const viewerId = String(JSON.parse(userJson).id);
    if (PARTS.has('user')) await benchUserGet({ baseUrl, token, userJson, supervisor });
    if (PARTS.has('repo')) await benchRepoGet({ baseUrl, token, viewerId, log, supervisor });
    if (PARTS.has('clone')) await benchGitClone({ baseUrl, token, dataDir, repositoryHttpAddress, viewerId, log, supervisor });
    if (PARTS.has('migrate')) await benchMigration({ baseUrl, token, dataDir, log });
    await benchSearches({ baseUrl, token, log });
    if (PARTS.has('contents')) await benchContentWrites({ baseUrl, token, dataDir, log });
    if (PARTS.has('hooks')) await benchWebhooks({ baseUrl, token, log });
    // Git-backed reads against the one-process reference, and the mixed workload (git-reads.mjs).
    const gitReads = { baseUrl, token, owner: admin.username, dataDir, log, fmt, machine, startForked, stopForked, freePorts, connections: CONNECTIONS, duration: DURATION, supervisor, pgBackends: runBackends };
    // BENCH_COMPARE_ROOT=<another built checkout>: the reads part also measures that code's
    // system, route by route in the same run (A/B), e.g. main before a change.
    if (PARTS.has('reads') && process.env.BENCH_COMPARE_ROOT) {
      const other = await bootGateway(join(dataDir, 'compare'), '_cmp', {}, process.env.BENCH_COMPARE_ROOT);
      gitReads.compare = { baseUrl: other.baseUrl, token: await createToken(other.baseUrl), supervisor: other.supervisor, dataDir: join(dataDir, 'compare'), label: process.env.BENCH_COMPARE_LABEL ?? 'compared code' };
    }
    if (PARTS.has('reads')) await benchGitReads(gitReads);
    if (PARTS.has('mixed')) await benchMixed(gitReads);
    const systemA = { name: 'A', baseUrl, token, collaborationDbUrl: databaseUrl(`${prefix}_collaboration`), cpu: systemCpuGroups(supervisor, '') };
    if (PARTS.has('issues')) await benchIssues({ systems: [systemA, ...(await abSystems(dataDir))], log });
    if (PARTS.has('issue-search')) await benchIssueSearchPart({ baseUrl, log, supervisor });
    if (PARTS.has('pulls')) await benchPullRequests({ baseUrl, token, dataDir, log, supervisor });
    if (PARTS.has('notifications')) await benchNotificationParts({ baseUrl, token, log, supervisor });
    if (PARTS.has('tracing')) {
      const sink = await startOtlpSink();
      const traced = await bootGateway(join(dataDir, 'traced'), '_tr', { OTEL_EXPORTER_OTLP_ENDPOINT: sink.url });
      await benchTracing({
        urls: { off: `${baseUrl}api/v1/user`, on: `${traced.baseUrl}api/v1/user` },
        tokens: { off: token, on: await createToken(traced.baseUrl) },
        load, rounds: ROUNDS, duration: DURATION, warmup: WARMUP, fmt, machine, connections: CONNECTIONS, sink, log,
      });
      await sink.close();
    }
  } finally {
    await cleanUp(dataDir);
  }
}

await main();
