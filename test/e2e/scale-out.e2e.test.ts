// Every stateless part scaled out on one machine, as a platform team runs Anvil on
// Kubernetes: two gateways behind a round-robin TCP proxy (the Service in front of the
// gateway's pods), two replicas each of identity, collaboration and hooks (each gateway and
// service given both addresses, balancing per call), one repository service, one PostgreSQL
// and one NATS. A workload of users, repositories, webhooks, issues, comments, commits and
// pull requests runs through the proxy; half way through, one replica of each stateless
// service and one gateway are killed with SIGKILL. Afterwards every acknowledged write is
// there, every event was handled once (one webhook delivery per commit and per opened issue,
// one notification thread per issue and pull request for a watcher), and the only requests
// that failed are the ones in flight on a killed process.
//
// How calls spread across the processes (from each one's Prometheus metrics) is written to
// test/.artifacts/scale-out-spread.md; the README's scaling section quotes a run of it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { deployableEntry, deployableNodeFlags, type DeployableName } from '../../cli/src/processes.js';
import { waitUntil } from '../../cli/src/net.js';
import { accounts } from '../support/accounts.js';
import { ApiClient } from '../support/api-client.js';
import { bootE2e, type E2e } from '../support/e2e.js';
import { TEST_NODE_FLAGS } from '../support/system.js';
import { freePorts, isListening } from '../support/free-port.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

jest.setTimeout(600_000);

const STATELESS = ['identity', 'collaboration', 'hooks'] as const;
type Stateless = (typeof STATELESS)[number];
const WORKERS = 6;
const UNITS = 24;

interface Replica {
  name: string;
  child?: ChildProcess;
  metricsPort: number;
}

let e2e: E2e;
let proxy: TcpProxy;
let receiver: Server;
let receiverUrl: string;
/** Every process by a name of our own ("identity 1", "gateway 2"...), with its metrics port. */
const processes = new Map<string, Replica>();
/** X-Gitea-Delivery ids seen per (hook path, `after` commit) of push deliveries. */
const pushDeliveries = new Map<string, Set<string>>();
/** X-Gitea-Delivery ids seen per (hook path, issue number) of `issues` deliveries that opened an issue. */
const openedDeliveries = new Map<string, Set<string>>();
const exitReason = new WeakMap<ChildProcess, () => string>();

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const record = (map: Map<string, Set<string>>, key: string) => {
        const ids = map.get(key) ?? new Set<string>();
        ids.add(String(req.headers['x-gitea-delivery']));
        map.set(key, ids);
      };
      const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { after?: string; action?: string; issue?: { number: number } };
      if (req.headers['x-gitea-event'] === 'push') record(pushDeliveries, `${req.url} ${payload.after}`);
      if (req.headers['x-gitea-event'] === 'issues' && payload.action === 'opened') record(openedDeliveries, `${req.url} ${payload.issue!.number}`);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

  const ports = await freePorts(16);
  const grpc = { identity: [ports[0]!, ports[1]!], collaboration: [ports[2]!, ports[3]!], hooks: [ports[4]!, ports[5]!] };
  const gateway2Port = ports[6]!;
  const metrics = ports.slice(7);
  const addresses = (name: Stateless) => grpc[name].map((p) => `127.0.0.1:${p}`).join(',');
  const firstMetrics: Partial<Record<DeployableName, Record<string, string>>> = {};
  (['gateway', 'identity', 'repository', 'collaboration', 'hooks'] as const).forEach((name, i) => {
    firstMetrics[name] = { ANVIL_METRICS_ADDR: `127.0.0.1:${metrics[i]}` };
    processes.set(`${name} 1`, { name, metricsPort: metrics[i]! });
  });
  e2e = await bootE2e({
    prefix: 'so-user',
    env: {
      ANVIL_IDENTITY_ADDR: addresses('identity'), ANVIL_COLLABORATION_ADDR: addresses('collaboration'), ANVIL_HOOKS_ADDR: addresses('hooks'),
      ANVIL__webhook__ALLOWED_HOST_LIST: 'loopback', ANVIL__webhook__RETRY_BACKOFF_MS: '100',
      // Every request authenticates through identity, so its two replicas have calls to share
      // (the gateways' credential cache would answer nearly all of them in a run this short).
      ANVIL_CREDENTIAL_CACHE_TTL_MS: '0',
      // What a killed replica held comes to a survivor after 5 s instead of the default 30 s.
      ANVIL_EVENTS_ACK_WAIT_MS: '5000',
    },
    deployableEnv: firstMetrics,
  });

  // The second replicas: the same build and environment, their own listen and metrics ports.
  const start = (name: DeployableName, env: Record<string, string>, metricsPort: number) => {
    const child = spawn(process.execPath, [...deployableNodeFlags(name), ...TEST_NODE_FLAGS, deployableEntry(name)], {
      env: { ...e2e.system.env, ...env, ANVIL_METRICS_ADDR: `127.0.0.1:${metricsPort}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    // Its last words, for the message when it exits at start.
    const said: string[] = [];
    child.stderr!.on('data', (chunk: Buffer) => said.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
    exitReason.set(child, () => said.slice(-10).join('\n'));
    processes.set(`${name} 2`, { name, child, metricsPort });
    return child;
  };
  STATELESS.forEach((name, i) => start(name, { ANVIL_GRPC_LISTEN: `127.0.0.1:${grpc[name][1]}` }, metrics[5 + i]!));
  const gateway2 = start('gateway', { ANVIL_HTTP_PORT: String(gateway2Port) }, metrics[8]!);
  for (const [label, port] of [...STATELESS.map((name) => [`${name} 2`, grpc[name][1]!] as const), ['gateway 2', gateway2Port] as const]) {
    const child = processes.get(label)!.child!;
    await waitUntil(`${label} to listen`, () => isListening(port), { timeoutMs: 120_000, abort: () => (child.exitCode !== null ? `${label} exited: ${exitReason.get(child)!()}` : undefined) });
  }
  await waitUntil('gateway 2 to be healthy', async () => (await fetch(`http://127.0.0.1:${gateway2Port}/api/healthz`)).ok, { timeoutMs: 120_000, abort: () => (gateway2.exitCode !== null ? 'gateway 2 exited' : undefined) });
  proxy = await startTcpProxy([Number(new URL(e2e.system.baseUrl).port), gateway2Port]);
}, 600_000);

afterAll(async () => {
  for (const { child } of processes.values()) {
    if (!child || child.exitCode !== null || child.signalCode !== null) continue;
    const gone = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await gone;
  }
  await proxy?.close();
  await e2e?.close();
  receiver?.closeAllConnections();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** Sum of the counters named `metric` a process reports; 0 once the process is gone. */
async function counted(label: string, metric: string): Promise<number> {
  const replica = processes.get(label)!;
  try {
    const text = await (await fetch(`http://127.0.0.1:${replica.metricsPort}/metrics`)).text();
    return text.split('\n').filter((line) => line.startsWith(`${metric}{`)).reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  } catch {
    return 0;
  }
}

/**
 * What each process has done: HTTP requests answered for a gateway; gRPC calls served and
 * events its durable consumers handled for a service.
 */
async function spread(): Promise<Map<string, { calls: number; events: number }>> {
  const entries = await Promise.all([...processes.entries()].map(async ([label, { name }]) => [label, {
    calls: await counted(label, name === 'gateway' ? 'anvil_http_requests_total' : 'anvil_grpc_server_handled_total'),
    events: name === 'gateway' ? 0 : await counted(label, 'anvil_events_consumed_total'),
  }] as const));
  return new Map(entries);
}

interface Acknowledged {
  issues: Array<{ repo: string; index: number; title: string }>;
  comments: Array<{ repo: string; id: number; body: string }>;
  files: Array<{ repo: string; hook: string; path: string; branch: string; sha: string }>;
  pulls: Array<{ repo: string; index: number; head: string }>;
}

describe('two of every stateless part, on one machine', () => {
  it('answers every request through either gateway, loses nothing acknowledged when one of each is killed, and handles every event once', async () => {
    const client = new ApiClient(proxy.url);
    const admin = client.as({ basic: [e2e.system.admin.username, e2e.system.admin.password] });
    const people = accounts(admin, 'so-');

    // Owners, each with a repository whose webhook reports pushes to the receiver.
    const owners: Array<{ as: ApiClient; repo: string; hook: string }> = [];
    for (let i = 0; i < WORKERS; i++) {
      const user = await people.newUser();
      const token = await people.newToken(user, ['write:repository', 'write:issue', 'write:user']);
      const as = client.as({ token });
      const name = `scaled-${i}`;
      const created = await as.post('/user/repos', { name, auto_init: true });
      if (created.status !== 201) throw new Error(`creating a repository: ${created.status} ${created.text}`);
      const repo = `/repos/${user.username}/${name}`;
      const hook = `/${user.username}/${name}`;
      const made = await as.post(`${repo}/hooks`, { type: 'gitea', active: true, events: ['push', 'issues'], config: { url: `${receiverUrl}${hook}`, content_type: 'json' } });
      expect(made.status).toBe(201);
      owners.push({ as, repo, hook });
    }

    // A watcher of every repository: each issue and pull request gives them one thread.
    const watcherUser = await people.newUser();
    const watcher = client.as({ token: await people.newToken(watcherUser, ['write:repository', 'read:notification']) });
    for (const { repo } of owners) expect((await watcher.put(`${repo}/subscription`)).status).toBe(200);

    const before = await spread();
    const done: Acknowledged = { issues: [], comments: [], files: [], pulls: [] };
    const failures: string[] = [];
    let started = 0;
    let killed: Promise<unknown> | undefined;
    const killHalfway = () => {
      killed ??= (async () => {
        const middle = await spread();
        await Promise.all([...STATELESS.map((name) => `${name} 2`), 'gateway 2'].map(async (label) => {
          const child = processes.get(label)!.child!;
          const gone = new Promise((resolve) => child.once('exit', resolve));
          child.kill('SIGKILL');
          await gone;
        }));
        return middle;
      })();
      return killed;
    };

    // One unit of work: an issue, a comment on it, a commit to main (a push event), and a
    // pull request from a new branch. A unit stops at its first failed request, which is
    // counted; nothing is retried, so what was acknowledged is exactly what answered 2xx.
    const unit = async (worker: number, n: number) => {
      const { as, repo, hook } = owners[worker]!;
      const step = async (what: string, send: () => Promise<{ status: number; body: any }>, status: number) => {
        let res;
        try {
          res = await send();
        } catch (err) {
          failures.push(`${what}: ${(err as Error).message}`);
          return undefined;
        }
        if (res.status !== status) {
          failures.push(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
          return undefined;
        }
        return res.body;
      };
      const title = `unit ${n}`;
      const issue = await step(`issue ${n}`, () => as.post(`${repo}/issues`, { title }), 201);
      if (!issue) return;
      done.issues.push({ repo, index: issue.number, title });
      const body = `comment of unit ${n}`;
      const comment = await step(`comment ${n}`, () => as.post(`${repo}/issues/${issue.number}/comments`, { body }), 201);
      if (!comment) return;
      done.comments.push({ repo, id: comment.id, body });
      const path = `unit-${n}.txt`;
      const file = await step(`commit ${n}`, () => as.post(`${repo}/contents/${path}`, { content: Buffer.from(`${n}\n`).toString('base64'), message: `unit ${n}` }), 201);
      if (!file) return;
      done.files.push({ repo, hook, path, branch: 'main', sha: file.commit.sha });
      const head = `topic-${n}`;
      const topic = await step(`branch commit ${n}`, () => as.post(`${repo}/contents/topic-${n}.txt`, { content: Buffer.from(`${n}\n`).toString('base64'), message: `topic ${n}`, new_branch: head }), 201);
      if (!topic) return;
      done.files.push({ repo, hook, path: `topic-${n}.txt`, branch: head, sha: topic.commit.sha });
      const pull = await step(`pull ${n}`, () => as.post(`${repo}/pulls`, { title: `pull of unit ${n}`, head, base: 'main' }), 201);
      if (!pull) return;
      done.pulls.push({ repo, index: pull.number, head });
    };

    await Promise.all(Array.from({ length: WORKERS }, async (_, worker) => {
      for (;;) {
        const n = started++;
        if (n >= UNITS) return;
        if (n === UNITS / 2) void killHalfway();
        await unit(worker, n);
      }
    }));
    const middle = (await killed) as Awaited<ReturnType<typeof spread>>;

    // Work spread across both replicas of each pair while all ran.
    const served = (label: string) => (middle.get(label)?.calls ?? 0) - (before.get(label)?.calls ?? 0);
    const handled = (label: string) => (middle.get(label)?.events ?? 0) - (before.get(label)?.events ?? 0);
    const rows = [...processes.keys()].sort().map((label) => `| ${label} | ${served(label)} | ${label.startsWith('gateway') ? '–' : handled(label)} |`);
    await mkdir(join('test', '.artifacts'), { recursive: true });
    await writeFile(join('test', '.artifacts', 'scale-out-spread.md'), [
      `Calls served by each process during the first half of the scale-out workload (${UNITS / 2} units on ${WORKERS} workers):`,
      '', '| process | HTTP requests or gRPC calls served | events handled |', '|---|---:|---:|', ...rows, '',
      `TCP connections the proxy gave each gateway: ${[...proxy.connectionsTo.values()].join(' / ')}`, '',
      `Requests that failed when one replica of each stateless part was killed (SIGKILL) half way: ${failures.length}`,
      ...failures.map((f) => `- ${f}`), '',
    ].join('\n'));
    for (const name of ['identity', 'collaboration', 'gateway']) {
      const one = served(`${name} 1`);
      const two = served(`${name} 2`);
      // Per-call balancing: neither replica of a pair is left idle while the other works.
      expect({ name, fewer: Math.min(one, two) > (one + two) / 5 }).toEqual({ name, fewer: true });
    }
    // The hooks replicas work from their shared durable consumer: both take events.
    expect([handled('hooks 1') > 0, handled('hooks 2') > 0]).toEqual([true, true]);

    // Only requests in flight on a killed process failed: one per worker at the kill, and at
    // most one more per worker sent on a keep-alive connection the client had open to the
    // killed gateway, in the moment before it saw that connection close.
    expect(failures.length).toBeLessThanOrEqual(2 * WORKERS);
    expect(done.pulls.length).toBeGreaterThanOrEqual(UNITS - 2 * WORKERS);

    // Everything acknowledged is there, read through the survivors.
    const reader = client.as({ basic: [e2e.system.admin.username, e2e.system.admin.password] });
    for (const issue of done.issues) expect((await reader.get(`${issue.repo}/issues/${issue.index}`)).body.title).toBe(issue.title);
    for (const comment of done.comments) expect((await reader.get(`${comment.repo}/issues/comments/${comment.id}`)).body.body).toBe(comment.body);
    for (const file of done.files) expect((await reader.get(`${file.repo}/contents/${file.path}?ref=${file.branch}`)).status).toBe(200);
    for (const pull of done.pulls) expect((await reader.get(`${pull.repo}/pulls/${pull.index}`)).body.head.ref).toBe(pull.head);

    // The watcher has one thread for every acknowledged issue and pull request: the
    // notification consumer, shared by the two collaboration replicas (one killed half way),
    // handled each event once. (Writes that failed may still have landed, and told them too.)
    const threadsOf = async () => {
      const subjects: string[] = [];
      for (let page = 1; ; page++) {
        const res = await watcher.get(`/notifications?all=true&limit=50&page=${page}`);
        for (const thread of res.body as Array<{ subject: { url: string } }>) subjects.push(thread.subject.url);
        if ((res.body as unknown[]).length < 50) return subjects;
      }
    };
    const expected = [
      ...done.issues.map((i) => `${i.repo}/issues/${i.index}`),
      // Gitea's subject URL of a pull request is its issue's API URL.
      ...done.pulls.map((p) => `${p.repo}/issues/${p.index}`),
    ];
    let threads: string[] = [];
    const missing = () => expected.filter((url) => !threads.some((subject) => subject.endsWith(url)));
    await waitUntil('a notification thread for every acknowledged issue and pull request', async () => {
      threads = await threadsOf();
      return missing().length === 0;
    }, { timeoutMs: 120_000 }).catch((err: Error) => {
      throw new Error(`${err.message}; missing ${missing().join(', ')} among ${threads.length} threads: ${threads.slice(0, 5).join(', ')}`);
    });
    // One thread per subject: a redelivered event never opened a second one.
    expect(threads.length).toBe(new Set(threads).size);

    // Every acknowledged commit reached its webhook, each by exactly one delivery: the two
    // hooks replicas (one killed half way) shared the events without doubling any.
    await waitUntil('a push delivery for every acknowledged commit', async () => done.files.every((f) => pushDeliveries.has(`${f.hook} ${f.sha}`)), { timeoutMs: 120_000 });
    for (const file of done.files) expect([file.path, pushDeliveries.get(`${file.hook} ${file.sha}`)!.size]).toEqual([file.path, 1]);
    // And every acknowledged issue, the collaboration service's event, by exactly one.
    const hookOf = (repo: string) => owners.find((o) => o.repo === repo)!.hook;
    await waitUntil('an opened delivery for every acknowledged issue', async () => done.issues.every((i) => openedDeliveries.has(`${hookOf(i.repo)} ${i.index}`)), { timeoutMs: 120_000 });
    for (const issue of done.issues) expect([issue.title, openedDeliveries.get(`${hookOf(issue.repo)} ${issue.index}`)!.size]).toEqual([issue.title, 1]);
  });
});
