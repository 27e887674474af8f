// `pnpm bench`, part "hooks": webhook delivery through the booted system. Push events are
// published on the stream as the repository service publishes them (protobuf, Nats-Msg-Id,
// Anvil-Event-Type), each with its own `after` sha, and local receivers note when each
// delivery arrives. (1) Event-to-delivery latency, p50/p99, at BENCH_HOOKS_RATE events/s
// (200) for BENCH_HOOKS_SECONDS (10) to one receiver. (2) A burst of BENCH_HOOKS_BURST events
// (1000) to one repository with four hooks, one of whose receivers answers after 1 s: how
// fast the three others are served meanwhile, and how far the slow one got.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { connect, headers as natsHeaders } from 'nats';
import pg from 'pg';
import { encodeEvent } from '../../proto/dist/index.js';

const RATE = Number(process.env.BENCH_HOOKS_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_HOOKS_SECONDS ?? 10);
const BURST = Number(process.env.BENCH_HOOKS_BURST ?? 1000);

const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

/** A receiver that answers after `delayMs` and notes when each `after` sha arrived. */
async function receiver(delayMs = 0) {
  const arrivals = new Map();
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      try {
        const sha = JSON.parse(Buffer.concat(chunks).toString()).after;
        if (!arrivals.has(sha)) arrivals.set(sha, at);
      } catch { /* not a push */ }
      setTimeout(() => res.writeHead(200).end('ok'), delayMs);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/hook`, arrivals, close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }) };
}

async function api(baseUrl, token, method, path, body) {
  const res = await fetch(`${baseUrl}api/v1${path}`, {
    method, headers: { authorization: `token ${token}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

async function repositoryWithHooks(ctx, name, urls) {
  const repo = await api(ctx.baseUrl, ctx.token, 'POST', '/user/repos', { name });
  for (const url of urls) {
    await api(ctx.baseUrl, ctx.token, 'POST', `/repos/${ctx.owner}/${name}/hooks`, { type: 'gitea', active: true, events: ['push'], config: { url, content_type: 'json', secret: 'bench' } });
  }
  return { id: repo.id, owner_id: repo.owner.id, owner_login: ctx.owner, name, default_branch: 'main' };
}

function pushEvent(repository, sha) {
  const now = { seconds: Math.floor(Date.now() / 1000) };
  return encodeEvent('anvil.repository.v1.Push', {
    repository, ref: 'refs/heads/main', before: '1'.repeat(40), after: sha, pusher: { id: repository.owner_id, login: repository.owner_login }, total_commits: 1,
    commits: [{ id: sha, message: 'bench\n', author: { name: 'b', email: 'b@example.com', when: now }, committer: { name: 'b', email: 'b@example.com', when: now }, timestamp: now, added: ['f'], removed: [], modified: [] }],
  });
}

async function waitFor(condition, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

export async function benchHooks({ baseUrl, token, owner, natsUrl, namespace, hooksDbUrl, log }) {
  const nc = await connect({ servers: natsUrl });
  const js = nc.jetstream();
  const publish = async (repository, sha, sent) => {
    const h = natsHeaders();
    h.set('Anvil-Event-Type', 'anvil.repository.v1.Push');
    sent.set(sha, performance.now());
    await js.publish(`${namespace}.repository.push`, pushEvent(repository, sha), { msgID: randomBytes(16).toString('hex'), headers: h });
  };
  const ctx = { baseUrl, token, owner };
  try {
    // (1) steady rate, one receiver.
    const steady = await receiver();
    const repo = await repositoryWithHooks(ctx, 'bench-hooks', [steady.url]);
    // Warm-up: the first deliveries open connections and fill caches.
    const warm = new Map();
    for (let i = 0; i < 20; i++) await publish(repo, randomBytes(20).toString('hex'), warm);
    await waitFor(() => [...warm.keys()].every((s) => steady.arrivals.has(s)), 30_000);
    log(`hooks: ${RATE} events/s for ${SECONDS} s`);
    const sent = new Map();
    const total = RATE * SECONDS;
    const start = performance.now();
    for (let i = 0; i < total; i++) {
      const due = start + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      void publish(repo, randomBytes(20).toString('hex'), sent);
    }
    await waitFor(() => [...sent.keys()].every((s) => steady.arrivals.has(s)), 120_000);
    const latencies = [...sent].filter(([s]) => steady.arrivals.has(s)).map(([s, t]) => steady.arrivals.get(s) - t);
    await steady.close();
    // Where the time went: how fast the consumer wrote the deliveries, and the senders sent them.
    const db = new pg.Client({ connectionString: hooksDbUrl });
    await db.connect();
    const { rows: [stages] } = await db.query(`
      SELECT count(*)::int AS n, extract(epoch FROM max(created_at) - min(created_at))::float AS written_s,
             extract(epoch FROM max(delivered_at) - min(delivered_at))::float AS sent_s
        FROM hook_delivery WHERE event_id NOT LIKE 'test:%' AND created_at >= (SELECT max(created_at) FROM hook_delivery) - interval '10 minutes'`);
    await db.end();
    log(`hooks: ${stages.n} deliveries written over ${stages.written_s.toFixed(1)} s, sent over ${stages.sent_s.toFixed(1)} s`);

    // (2) a burst to four hooks, one receiver answering in 1 s.
    const fast = [await receiver(), await receiver(), await receiver()];
    const slow = await receiver(1_000);
    const burstRepo = await repositoryWithHooks(ctx, 'bench-hooks-burst', [...fast.map((r) => r.url), slow.url]);
    log(`hooks: a burst of ${BURST} events to 4 hooks, one answering in 1 s`);
    const burstSent = new Map();
    const burstStart = performance.now();
    await Promise.all(Array.from({ length: BURST }, () => publish(burstRepo, randomBytes(20).toString('hex'), burstSent)));
    const fastDone = () => fast.every((r) => [...burstSent.keys()].every((s) => r.arrivals.has(s)));
    await waitFor(fastDone, 300_000);
    const fastSeconds = (Math.max(...fast.flatMap((r) => [...r.arrivals.values()])) - burstStart) / 1000;
    const fastLatencies = fast.flatMap((r) => [...burstSent].filter(([s]) => r.arrivals.has(s)).map(([s, t]) => r.arrivals.get(s) - t));
    const slowByThen = slow.arrivals.size;
    for (const r of [...fast, slow]) await r.close();
    return {
      steady: { events: total, delivered: latencies.length, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), stages },
      burst: {
        events: BURST, fastDelivered: fastLatencies.length, fastSeconds, fastPerSecond: fastLatencies.length / fastSeconds,
        fastP50: quantile(fastLatencies, 0.5), fastP99: quantile(fastLatencies, 0.99), slowDelivered: slowByThen,
      },
    };
  } finally {
    await nc.close();
  }
}
