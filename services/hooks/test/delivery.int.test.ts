// Webhook delivery over real PostgreSQL, NATS and a real local HTTP receiver: an event on the
// stream becomes a signed POST with Gitea's headers and payload, failures are retried (5xx,
// timeouts) or not (4xx), two replicas deliver each event once between them, and the
// outbound guard refuses targets [webhook] ALLOWED_HOST_LIST does not allow.
import { fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { queueDeliveries } from '../src/store/deliveries.js';
import { webhookStore } from '../src/store/webhooks.js';
import type { Webhook } from '../src/domain/webhooks.js';
import { hooksTestbed, TEST_SECRET_KEY, type HooksTestbed, type Receiver } from './support/testbed.js';

let tb: HooksTestbed;
let nextRepo = 100;

beforeAll(async () => {
  tb = await hooksTestbed('delivery');
  await tb.consumer();
}, 30_000);

afterAll(() => tb?.close());

const ZERO = '0'.repeat(40);
const SHA = 'a'.repeat(40);

function repository(id: number, ownerId = 7) {
  return { id, owner_id: ownerId, owner_login: 'ada', name: `repo${id}`, default_branch: 'main', created_at: { seconds: 1_700_000_000 }, updated_at: { seconds: 1_700_000_000 } };
}

function push(repoId: number, ref = 'refs/heads/main') {
  return {
    repository: repository(repoId), ref, before: 'b'.repeat(40), after: SHA, pusher: { id: 7, login: 'ada' }, total_commits: 1,
    commits: [{
      id: SHA, message: 'Add a file\n', author: { name: 'Ada', email: 'ada@example.com', when: { seconds: 1_700_000_000 } },
      committer: { name: 'Ada', email: 'ada@example.com', when: { seconds: 1_700_000_000 } }, timestamp: { seconds: 1_700_000_000 },
      added: ['file.txt'], removed: [], modified: [],
    }],
  };
}

async function hook(repoId: number, url: string, extra: Partial<Webhook> = {}): Promise<Webhook> {
  return webhookStore(tb.db, tb.box).create({
    repoId, ownerId: 0, isSystemWebhook: false, type: 'gitea', name: '', url, contentType: 'json', secret: 'topsecret',
    authorizationHeader: '', events: ['push', 'create', 'delete', 'repository'], branchFilter: '', meta: {}, active: true, ...extra,
  });
}

const deliveriesOf = (hookId: number) => tb.db.hookDelivery.findMany({ where: { hook_id: BigInt(hookId) }, orderBy: { id: 'asc' } });

async function settled(hookId: number, count: number): Promise<Awaited<ReturnType<typeof deliveriesOf>>> {
  for (;;) {
    const rows = await deliveriesOf(hookId);
    if (rows.length >= count && rows.every((r) => r.status !== 'pending')) return rows;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webhook delivery', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await tb.receiver();
    tb.senders();
  });

  it('posts a push with Gitea\'s headers, signed with the secret over the exact body', async () => {
    const repoId = nextRepo++;
    const made = await hook(repoId, receiver.url, { authorizationHeader: 'Bearer xyz' });
    const before = receiver.requests.length;
    const eventId = await tb.publish('repository.push', 'anvil.repository.v1.Push', push(repoId));
    await receiver.waitFor(before + 1);
    const request = receiver.requests[before];

    // Checked with node:crypto here, not with the sender's code.
    const expected256 = createHmac('sha256', 'topsecret').update(request.body).digest('hex');
    const expected1 = createHmac('sha1', 'topsecret').update(request.body).digest('hex');
    expect(request.method).toBe('POST');
    expect(request.headers).toMatchObject({
      'content-type': 'application/json', 'x-gitea-event': 'push', 'x-gitea-event-type': 'push', 'x-gogs-event': 'push',
      'x-github-event': 'push', 'x-gitea-signature': expected256, 'x-gogs-signature': expected256,
      'x-hub-signature': `sha1=${expected1}`, 'x-hub-signature-256': `sha256=${expected256}`, authorization: 'Bearer xyz',
    });
    expect(request.headers['x-gitea-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.headers['x-github-delivery']).toBe(request.headers['x-gitea-delivery']);

    const payload = JSON.parse(request.body.toString('utf8'));
    expect(payload).toMatchObject({
      ref: 'refs/heads/main', before: 'b'.repeat(40), after: SHA, total_commits: 1,
      compare_url: `http://anvil.test/ada/repo${repoId}/compare/${'b'.repeat(40)}...${SHA}`,
      head_commit: { id: SHA, message: 'Add a file\n', url: `http://anvil.test/ada/repo${repoId}/commit/${SHA}`, added: ['file.txt'] },
      pusher: { id: 7, login: 'ada', username: 'ada' }, sender: { login: 'ada' },
      repository: { id: repoId, name: `repo${repoId}`, full_name: `ada/repo${repoId}`, owner: { login: 'ada' }, html_url: `http://anvil.test/ada/repo${repoId}` },
    });
    expect(payload.commits).toHaveLength(1);

    const [row] = await settled(made.id, 1);
    expect(row).toMatchObject({ event_id: eventId, event: 'push', status: 'delivered', attempts: 1, response_status: 200 });
    expect((row.request_headers as Record<string, string>).authorization).toBe('******');
  });

  it('sends create and delete with their ref type, and skips branches the filter leaves out', async () => {
    const repoId = nextRepo++;
    const made = await hook(repoId, receiver.url, { branchFilter: 'release/*' });
    const before = receiver.requests.length;
    const change = (name: string, ref: string) => ({ repository: repository(repoId), name, ref, sha: SHA, pusher: { id: 7, login: 'ada' } });
    await tb.publish('repository.branch.created', 'anvil.repository.v1.RefChanged', change('feature', 'refs/heads/feature'));
    await tb.publish('repository.branch.created', 'anvil.repository.v1.RefChanged', change('release/1.0', 'refs/heads/release/1.0'));
    await tb.publish('repository.tag.deleted', 'anvil.repository.v1.RefChanged', change('release/x', 'refs/tags/release/x'));
    await receiver.waitFor(before + 2);
    const rows = await settled(made.id, 2);
    expect(rows.map((r) => r.event)).toEqual(['create', 'delete']);
    const bodies = receiver.requests.slice(before).map((r) => ({ event: r.headers['x-gitea-event'], body: JSON.parse(r.body.toString()) }));
    expect(bodies).toEqual(expect.arrayContaining([
      { event: 'create', body: expect.objectContaining({ ref: 'release/1.0', ref_type: 'branch', sha: SHA }) },
      { event: 'delete', body: expect.objectContaining({ ref: 'release/x', ref_type: 'tag', pusher_type: 'user' }) },
    ]));
  });

  it('sends form-encoded payloads as payload=<json>, signed over the encoded bytes', async () => {
    const repoId = nextRepo++;
    await hook(repoId, receiver.url, { contentType: 'form' });
    const before = receiver.requests.length;
    await tb.publish('repository.push', 'anvil.repository.v1.Push', push(repoId));
    await receiver.waitFor(before + 1);
    const request = receiver.requests[before];
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.headers['x-gitea-signature']).toBe(createHmac('sha256', 'topsecret').update(request.body).digest('hex'));
    const form = new URLSearchParams(request.body.toString());
    expect(JSON.parse(form.get('payload')!)).toMatchObject({ ref: 'refs/heads/main', after: SHA });
  });

  it('fires repository hooks, the owner\'s hooks and system hooks, but not inactive ones or other owners\'', async () => {
    const repoId = nextRepo++;
    const store = webhookStore(tb.db, tb.box);
    const base = { repoId: 0, isSystemWebhook: false, type: 'gitea' as const, name: '', url: receiver.url, contentType: 'json' as const, secret: '', authorizationHeader: '', events: ['repository' as const], branchFilter: '', meta: {}, active: true };
    const ownerHook = await store.create({ ...base, ownerId: 7 });
    const otherOwner = await store.create({ ...base, ownerId: 8 });
    const inactive = await store.create({ ...base, ownerId: 7, active: false });
    const system = await store.create({ ...base, ownerId: 0, isSystemWebhook: true });
    await tb.publish('repository.repo.created', 'anvil.repository.v1.RepositoryCreated', { repository: repository(repoId), actor_id: 7 });
    const [delivered] = await settled(ownerHook.id, 1);
    expect(JSON.parse(delivered.payload)).toMatchObject({ action: 'created', repository: { id: repoId }, organization: { login: 'ada' } });
    await settled(system.id, 1);
    expect(await deliveriesOf(otherOwner.id)).toHaveLength(0);
    expect(await deliveriesOf(inactive.id)).toHaveLength(0);
    await store.remove({ kind: 'site', list: 'all' }, system.id);
  });

  it('drops a deleted repository\'s hooks and their deliveries, and tells the owner\'s hooks', async () => {
    const repoId = nextRepo++;
    const own = await hook(repoId, receiver.url);
    const ownerHook = await webhookStore(tb.db, tb.box).create({
      repoId: 0, ownerId: 9, isSystemWebhook: false, type: 'gitea', name: '', url: receiver.url, contentType: 'json', secret: '',
      authorizationHeader: '', events: ['repository'], branchFilter: '', meta: {}, active: true,
    });
    await tb.publish('repository.push', 'anvil.repository.v1.Push', push(repoId));
    await settled(own.id, 1);
    await tb.publish('repository.repo.deleted', 'anvil.repository.v1.RepositoryDeleted', {
      repository: repository(repoId, 9), actor_id: 9, actor: { id: 9, login: 'bob' },
    });
    const [told] = await settled(ownerHook.id, 1);
    expect(JSON.parse(told.payload)).toMatchObject({ action: 'deleted', repository: { id: repoId }, sender: { login: 'bob' } });
    expect(await webhookStore(tb.db, tb.box).find({ kind: 'repository', repoId }, own.id)).toBeUndefined();
    expect(await deliveriesOf(own.id)).toHaveLength(0);
  });
});

describe('retries', () => {
  it('tries again after 5xx answers and timeouts, then succeeds', async () => {
    const receiver = await tb.receiver();
    // 503, then a hang past the deliver timeout, then 200.
    receiver.answer = (_req, index) => (index === 0 ? { status: 503 } : index === 1 ? { status: 200, delayMs: 3_000 } : { status: 200 });
    const pool = tb.senders({ allowed: [`127.0.0.1/32`], timeoutMs: 1_000 });
    const repoId = nextRepo++;
    const made = await hook(repoId, receiver.url);
    await tb.publish('repository.push', 'anvil.repository.v1.Push', push(repoId));
    const [row] = await settled(made.id, 1);
    await pool.stop();
    expect(row).toMatchObject({ status: 'delivered', attempts: 3, response_status: 200 });
    expect(receiver.requests.map((r) => r.headers['x-gitea-delivery'])).toEqual(Array(3).fill(row.uuid));
  });

  it('does not retry a 4xx, and gives up after the configured attempts', async () => {
    const receiver = await tb.receiver();
    receiver.answer = (req) => (req.url === '/gone' ? { status: 410 } : { status: 500 });
    const gone = await hook(nextRepo, receiver.url.replace('/hook', '/gone'));
    const broken = await hook(nextRepo, receiver.url);
    await tb.publish('repository.push', 'anvil.repository.v1.Push', push(nextRepo++));
    expect((await settled(gone.id, 1))[0]).toMatchObject({ status: 'failed', attempts: 1, response_status: 410 });
    expect((await settled(broken.id, 1))[0]).toMatchObject({ status: 'failed', attempts: 4, response_status: 500 });
  });
});

describe('two replicas', () => {
  it('deliver each of 60 events exactly once between them', async () => {
    const receiver = await tb.receiver();
    // A second replica: another consumer on the same durable, and more sender pools, over
    // the same database and stream, as a second pod would run them.
    await tb.consumer();
    tb.senders();
    tb.senders();
    const repoId = nextRepo++;
    const made = await hook(repoId, receiver.url);
    await Promise.all(Array.from({ length: 60 }, () => tb.publish('repository.push', 'anvil.repository.v1.Push', push(repoId))));
    const rows = await settled(made.id, 60);
    expect(rows).toHaveLength(60);
    expect(rows.filter((r) => r.status !== 'delivered' || r.attempts !== 1).map((r) => [r.status, r.attempts, r.error, r.response_status])).toEqual([]);
    await receiver.waitFor(60);
    const ids = receiver.requests.map((r) => r.headers['x-gitea-delivery']);
    expect(new Set(ids).size).toBe(60);
    expect(ids).toHaveLength(60);
  });
});

describe('a slow receiver', () => {
  it('gets at most MAX_PER_HOST requests at a time and does not hold up the other hooks', async () => {
    // A database of its own, so that only this pool sends.
    const own = await hooksTestbed('slow');
    try {
      await own.consumer();
      const slow = await own.receiver();
      const fast = await own.receiver();
      let active = 0;
      let peak = 0;
      slow.answer = () => {
        active++;
        peak = Math.max(peak, active);
        setTimeout(() => active--, 1_000);
        return { status: 200, delayMs: 1_000 };
      };
      for (const url of [slow.url, fast.url]) {
        await webhookStore(own.db, own.box).create({
          repoId: 1, ownerId: 0, isSystemWebhook: false, type: 'gitea', name: '', url, contentType: 'json', secret: '',
          authorizationHeader: '', events: ['push'], branchFilter: '', meta: {}, active: true,
        });
      }
      own.senders({ maxPerHost: 2, timeoutMs: 10_000 });
      await Promise.all(Array.from({ length: 16 }, () => own.publish('repository.push', 'anvil.repository.v1.Push', push(1))));
      await fast.waitFor(16);
      // The slow one needs 8 s for its 16 (two at a time, 1 s each); the fast one was served meanwhile.
      expect(slow.requests.length).toBeLessThan(16);
      expect(peak).toBeLessThanOrEqual(2);
      await slow.waitFor(16);
      expect(peak).toBe(2);
    } finally {
      await own.close();
    }
  }, 120_000);
});

describe('a replica killed mid-send', () => {
  it('loses no delivery: another replica sends what it held once its lease runs out', async () => {
    // A database of its own, so that only the child's pool sends until it is killed.
    const own = await hooksTestbed('killed');
    try {
      const receiver = await own.receiver();
      receiver.answer = () => ({ status: 200, delayMs: 1_500 });
      const made = await webhookStore(own.db, own.box).create({
        repoId: 1, ownerId: 0, isSystemWebhook: false, type: 'gitea', name: '', url: receiver.url, contentType: 'json', secret: '',
        authorizationHeader: '', events: ['push'], branchFilter: '', meta: {}, active: true,
      });
      const child = fork(fileURLToPath(new URL('./support/sender-process.mjs', import.meta.url)), [], {
        env: { ...process.env, DATABASE_URL: own.databaseUrl, LEASE_MS: '3000', SECRET_KEY: TEST_SECRET_KEY }, stdio: 'ignore',
      });
      try {
        await new Promise((resolve, reject) => {
          child.once('message', resolve);
          child.once('exit', (code) => reject(new Error(`sender process exited (${code})`)));
        });
        await queueDeliveries(own.db, Array.from({ length: 8 }, (_, n) => ({ hookId: made.id, eventId: `burst-${n}`, event: 'push' as const, payload: `{"n":${n}}` })));
        // The child holds the deliveries and waits for the receiver's answers: kill it there.
        await receiver.waitFor(8);
        child.kill('SIGKILL');
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      expect(await own.db.hookDelivery.count({ where: { hook_id: BigInt(made.id), status: 'pending' } })).toBe(8);
      receiver.answer = () => ({ status: 200 });
      own.senders();
      let rows = await own.db.hookDelivery.findMany({ where: { hook_id: BigInt(made.id) } });
      while (rows.some((r) => r.status === 'pending')) {
        await new Promise((r) => setTimeout(r, 50));
        rows = await own.db.hookDelivery.findMany({ where: { hook_id: BigInt(made.id) } });
      }
      expect(rows.map((r) => r.status)).toEqual(Array(8).fill('delivered'));
      // Each was sent twice (once to the killed replica's unanswered request), with one id.
      const counts = new Map<unknown, number>();
      for (const r of receiver.requests) counts.set(r.headers['x-gitea-delivery'], (counts.get(r.headers['x-gitea-delivery']) ?? 0) + 1);
      expect(rows.map((r) => counts.get(r.uuid))).toEqual(Array(8).fill(2));
    } finally {
      await own.close();
    }
  });
});

describe('the outbound guard', () => {
  // One system with the default allow list (`external`), shared by the cases below.
  let guarded: HooksTestbed;
  let nextGuardedRepo = 1;
  beforeAll(async () => {
    guarded = await hooksTestbed('guard');
    await guarded.consumer();
    guarded.senders({ allowed: ['external'] });
  }, 30_000);
  afterAll(() => guarded?.close());

  /** Sends a push to `url` through the guarded system; answers the settled delivery. */
  async function deliverTo(url: string) {
    const repoId = nextGuardedRepo++;
    const made = await webhookStore(guarded.db, guarded.box).create({
      repoId, ownerId: 0, isSystemWebhook: false, type: 'gitea', name: '', url, contentType: 'json', secret: '',
      authorizationHeader: '', events: ['push'], branchFilter: '', meta: {}, active: true,
    });
    await guarded.publish('repository.push', 'anvil.repository.v1.Push', push(repoId));
    for (;;) {
      const [row] = await guarded.db.hookDelivery.findMany({ where: { hook_id: BigInt(made.id) } });
      if (row && row.status !== 'pending') return row;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  it.each([
    ['a loopback address', (port: number) => `http://127.0.0.1:${port}/hook`],
    ['a name that resolves to loopback', (port: number) => `http://localhost:${port}/hook`],
    ['0.0.0.0', (port: number) => `http://0.0.0.0:${port}/hook`],
    ['::', (port: number) => `http://[::]:${port}/hook`],
    ['::1', (port: number) => `http://[::1]:${port}/hook`],
    ['an IPv4-mapped loopback address', (port: number) => `http://[::ffff:127.0.0.1]:${port}/hook`],
  ])('refuses %s under the default `external`, without retrying and without reaching it', async (_name, urlOf) => {
    const receiver = await guarded.receiver();
    const row = await deliverTo(urlOf(receiver.port));
    expect(row).toMatchObject({ status: 'failed', attempts: 1, response_status: 0 });
    expect(row.error).toContain('is not allowed by [webhook] ALLOWED_HOST_LIST');
    expect(receiver.requests).toHaveLength(0);
  });

  it.each([
    ['a private address', 'http://10.1.2.3/hook'],
    ['a private IPv6 address', 'http://[fd00::1]/hook'],
    ['the link-local cloud metadata address', 'http://169.254.169.254/latest/meta-data'],
    ['a NAT64 form of a loopback address', 'http://[64:ff9b::7f00:1]/hook'],
  ])('refuses %s under the default `external` before connecting', async (_name, url) => {
    const row = await deliverTo(url);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, response_status: 0 });
    expect(row.error).toContain('is not allowed by [webhook] ALLOWED_HOST_LIST');
  });

  it('checks every redirect: an allowed host redirecting to a refused one is not followed there', async () => {
    const target = await tb.receiver();
    const redirector = await tb.receiver();
    redirector.answer = () => ({ status: 307, location: `http://127.0.0.2:${target.port}/hook` });
    // The redirector is allowed by CIDR; where it points is not. A database of its own, so
    // that only this pool (and its allow list) sends the delivery.
    const own = await hooksTestbed('redirect');
    try {
      await own.consumer();
      own.senders({ allowed: ['127.0.0.1/32'] });
      const made = await webhookStore(own.db, own.box).create({
        repoId: 1, ownerId: 0, isSystemWebhook: false, type: 'gitea', name: '', url: redirector.url, contentType: 'json', secret: '',
        authorizationHeader: '', events: ['push'], branchFilter: '', meta: {}, active: true,
      });
      await own.publish('repository.push', 'anvil.repository.v1.Push', push(1));
      for (;;) {
        const [row] = await own.db.hookDelivery.findMany({ where: { hook_id: BigInt(made.id) } });
        if (row && row.status !== 'pending') {
          expect(row).toMatchObject({ status: 'failed', attempts: 1 });
          expect(row.error).toContain('127.0.0.2');
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(redirector.requests).toHaveLength(1);
      expect(target.requests).toHaveLength(0);
    } finally {
      await own.close();
    }
  });
});
