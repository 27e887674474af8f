// Turning events into deliveries: waiting events are taken in batches (one transaction per
// batch), yet each event still becomes its deliveries exactly once — an event already
// processed is skipped, a bad event does not hold back the others of its batch, and a
// replica killed with SIGKILL mid-burst loses nothing (the events it held come back to the
// other replica, which writes each delivery once).
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { outboxEvent } from '@anvil/kit';
import { webhookStore } from '../src/store/webhooks.js';
import { hooksTestbed, type HooksTestbed } from './support/testbed.js';

jest.setTimeout(180_000);

let tb: HooksTestbed;
let nextRepo = 700;

beforeAll(async () => {
  tb = await hooksTestbed('consumer');
  await tb.consumer({ batch: 32 });
}, 30_000);

afterAll(() => tb?.close());

const push = (repoId: number, after = 'a'.repeat(40)) => ({
  repository: { id: repoId, owner_id: 7, owner_login: 'ada', name: `repo${repoId}`, default_branch: 'main' },
  ref: 'refs/heads/main', before: 'b'.repeat(40), after, pusher: { id: 7, login: 'ada' }, total_commits: 0, commits: [],
});

const hookFor = (testbed: HooksTestbed, repoId: number) => webhookStore(testbed.db, testbed.box).create({
  repoId, ownerId: 0, isSystemWebhook: false, type: 'gitea', name: '', url: 'http://127.0.0.1:9/never-sent', contentType: 'json', secret: '',
  authorizationHeader: '', events: ['push'], branchFilter: '', meta: {}, active: true,
});

/** The deliveries written for a hook, once there are at least `count`. */
async function deliveriesOnceThere(testbed: HooksTestbed, hookId: number, count: number) {
  for (;;) {
    const rows = await testbed.db.hookDelivery.findMany({ where: { hook_id: BigInt(hookId) }, select: { event_id: true } });
    if (rows.length >= count) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('events in batches', () => {
  it('turns a burst of 300 events into one delivery each', async () => {
    const repoId = nextRepo++;
    const hook = await hookFor(tb, repoId);
    const ids = await Promise.all(Array.from({ length: 300 }, () => tb.publish('repository.push', 'anvil.repository.v1.Push', push(repoId))));
    const rows = await deliveriesOnceThere(tb, hook.id, 300);
    await new Promise((r) => setTimeout(r, 500));
    expect(await tb.db.hookDelivery.count({ where: { hook_id: BigInt(hook.id) } })).toBe(300);
    expect(new Set(rows.map((r) => r.event_id))).toEqual(new Set(ids));
  });

  it('skips an event already processed, and a bad event does not hold back the rest of its batch', async () => {
    const repoId = nextRepo++;
    const hook = await hookFor(tb, repoId);
    // Seen before (as after a crash between commit and ack): marked processed already.
    const seen = outboxEvent('repository.push', 'anvil.repository.v1.Push', push(repoId, 'c'.repeat(40)));
    await tb.db.processedEvent.create({ data: { consumer: 'hooks', event_id: seen.id } });
    // A push with no repository cannot be turned into deliveries: its handler fails.
    const bad = outboxEvent('repository.push', 'anvil.repository.v1.Push', { ref: 'refs/heads/main' });
    const good = Array.from({ length: 20 }, () => outboxEvent('repository.push', 'anvil.repository.v1.Push', push(repoId)));
    await tb.db.outboxEvent.createMany({ data: [seen, bad, ...good] });
    const rows = await deliveriesOnceThere(tb, hook.id, 20);
    await new Promise((r) => setTimeout(r, 500));
    expect(new Set(rows.map((r) => r.event_id))).toEqual(new Set(good.map((e) => e.id)));
    expect(rows).toHaveLength(20);
  });

  it('passes over an event that fires no webhook without a transaction, and still delivers the next', async () => {
    const repoId = nextRepo++;
    const hook = await hookFor(tb, repoId);
    const starred = await tb.publish('repository.star.added', 'anvil.repository.v1.Push', push(repoId));
    const pushed = await tb.publish('repository.push', 'anvil.repository.v1.Push', push(repoId));
    // The consumer takes its events in order: once the push's delivery is there, the star was seen.
    expect((await deliveriesOnceThere(tb, hook.id, 1)).map((r) => r.event_id)).toEqual([pushed]);
    const processed = await tb.db.processedEvent.findMany({ where: { consumer: 'hooks', event_id: { in: [starred, pushed] } }, select: { event_id: true } });
    expect(processed.map((r) => r.event_id)).toEqual([pushed]);
  });

  it('passes over a push to a repository no hook listens to without a transaction, and delivers a push once a hook is added', async () => {
    const quiet = nextRepo++;
    const watched = nextRepo++;
    const hook = await hookFor(tb, watched);
    const unheard = await tb.publish('repository.push', 'anvil.repository.v1.Push', push(quiet));
    const heard = await tb.publish('repository.push', 'anvil.repository.v1.Push', push(watched));
    expect((await deliveriesOnceThere(tb, hook.id, 1)).map((r) => r.event_id)).toEqual([heard]);
    const processed = await tb.db.processedEvent.findMany({ where: { consumer: 'hooks', event_id: { in: [unheard, heard] } }, select: { event_id: true } });
    expect(processed.map((r) => r.event_id)).toEqual([heard]);
    // A hook added afterwards hears the next push to it (once the hook change's notification
    // empties the consumers' cache, which is done here at once).
    const late = await hookFor(tb, quiet);
    tb.hookCache.clear();
    const next = await tb.publish('repository.push', 'anvil.repository.v1.Push', push(quiet));
    expect((await deliveriesOnceThere(tb, late.id, 1)).map((r) => r.event_id)).toEqual([next]);
  });
});

describe('a replica killed mid-burst', () => {
  it('loses no event: the other replica writes each delivery once', async () => {
    const own = await hooksTestbed('consumer_killed');
    try {
      const repoId = 1;
      const hook = await hookFor(own, repoId);
      const child = fork(fileURLToPath(new URL('./support/consumer-process.mjs', import.meta.url)), [], {
        // The durable consumer is the child's: what it held comes back after 3 s, not 30.
        env: { ...process.env, ANVIL_EVENTS_ACK_WAIT_MS: '3000', DATABASE_URL: own.databaseUrl, NATS_URL: process.env.ANVIL_TEST_NATS_URL ?? 'nats://127.0.0.1:4222', NAMESPACE: own.bus.namespace },
        stdio: 'ignore',
      });
      let ids: string[];
      try {
        await new Promise((resolve, reject) => {
          child.once('message', resolve);
          child.once('exit', (code) => reject(new Error(`consumer process exited (${code})`)));
        });
        const publishing = Promise.all(Array.from({ length: 400 }, () => own.publish('repository.push', 'anvil.repository.v1.Push', push(repoId))));
        // Killed once it has written some deliveries, with the rest of the burst in hand or still coming.
        await deliveriesOnceThere(own, hook.id, 10);
        child.kill('SIGKILL');
        ids = await publishing;
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      expect(await own.db.hookDelivery.count({ where: { hook_id: BigInt(hook.id) } })).toBeLessThan(400);
      // The surviving replica: what the killed one held unacknowledged comes back after the ack wait.
      await own.consumer({ batch: 16 });
      const rows = await deliveriesOnceThere(own, hook.id, 400);
      await new Promise((r) => setTimeout(r, 1_000));
      expect(await own.db.hookDelivery.count({ where: { hook_id: BigInt(hook.id) } })).toBe(400);
      expect(new Set(rows.map((r) => r.event_id))).toEqual(new Set(ids));
    } finally {
      await own.close();
    }
  });
});
