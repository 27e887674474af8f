// The outbox relay against real PostgreSQL and NATS: an event that can never be published
// is set aside as a dead letter while the events after it flow, is counted in the metrics,
// and goes out when retried once its cause is gone. The tables are a real service's (the
// kit's event tables are copied into each schema); identity's is used here. The relay runs
// on a pg pool of its own, as every service runs it (kit service.ts).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { connect, DiscardPolicy, nanos, RetentionPolicy, StorageType } from 'nats';
import pg from 'pg';
import { register } from 'prom-client';
import { decodeEvent, encodeEvent } from '@anvil/proto';
import {
  createLogger, EVENT_TARGET_MAX_BYTES, EVENT_TEXT_MAX_BYTES, listDeadLetters, outboxEvent,
  pgSqlClient, retryDeadLetters, startOutboxRelay, type EventBus, type OutboxRelay,
} from '../../src/index.js';
import { createDb, type IdentityDb } from '../../../identity/src/store/db.js';
import { NATS_URL, newRunId, Teardown, testDatabase, testEventBus } from '../../../../test/support/int-testbed.js';

const MIGRATIONS = fileURLToPath(new URL('../../../identity/prisma/migrations', import.meta.url));
const USER_DELETED = 'anvil.identity.v1.UserDeleted';
// The stream of the second namespace refuses messages above this (JetStream's max_msg_size),
// a cause an operator can remove, unlike the server's max_payload.
const STREAM_LIMIT = 64 * 1024;

process.env.ANVIL_LOG_LEVEL ??= 'silent';
const log = createLogger('outbox-dead-letters-test');
const teardown = new Teardown();
let db: IdentityDb;
let relayPool: pg.Pool;

interface Seen { id: string; subject: string; bytes: number }

async function busWithRecorder(namespace: string): Promise<{ bus: EventBus; seen: Seen[]; relay: OutboxRelay }> {
  const { bus, close } = await testEventBus('outbox-dead-letters-test', namespace, log);
  teardown.add(close);
  const seen: Seen[] = [];
  const sub = bus.nc.subscribe(bus.subject('>'));
  teardown.add(() => sub.unsubscribe());
  void (async () => {
    for await (const m of sub) seen.push({ id: m.headers?.get('Nats-Msg-Id') ?? '', subject: m.subject.slice(namespace.length + 1), bytes: m.data.length });
  })();
  const relay = startOutboxRelay(pgSqlClient(relayPool), bus, log, 100);
  teardown.add(() => relay.stop());
  return { bus, seen, relay };
}

/** A namespace whose stream, made here, has these limits (which a test may lift with jsm.streams.update). */
async function streamWithLimits(prefix: string, limits: { max_msg_size?: number; max_msgs?: number; discard?: DiscardPolicy }) {
  const namespace = `anvil_test_${prefix}_${newRunId()}`;
  const nc = await connect({ servers: NATS_URL });
  teardown.add(() => nc.close());
  const jsm = await nc.jetstreamManager();
  const stream = { name: namespace.toUpperCase(), subjects: [`${namespace}.>`], retention: RetentionPolicy.Limits,
    storage: StorageType.File, duplicate_window: nanos(60_000), ...limits };
  await jsm.streams.add(stream);
  return { namespace, jsm, stream };
}

/** Writes an event row as a service would, bypassing outboxEvent's bounds when `raw` is given. */
async function writeEvent(login: string, raw?: Uint8Array): Promise<string> {
  const row = raw
    ? { id: randomUUID(), subject: 'identity.user.deleted', type: USER_DELETED, payload: new Uint8Array(raw) }
    : outboxEvent('identity.user.deleted', USER_DELETED, { user_id: 1, login });
  await db.outboxEvent.create({ data: row });
  return row.id;
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function metric(name: string): Promise<number> {
  const found = (await register.getMetricsAsJSON()).find((m) => m.name === name);
  return Number(found?.values[0]?.value ?? 0);
}

beforeAll(async () => {
  const database = await testDatabase(`anvil_kit_outbox_test_${newRunId()}`, MIGRATIONS);
  teardown.add(() => database.drop());
  db = createDb(database.url);
  teardown.add(() => db.$disconnect());
  relayPool = new pg.Pool({ connectionString: database.url, max: 1 });
  teardown.add(() => relayPool.end());
});
afterAll(() => teardown.run());

describe('outbox relay', () => {
  it('sets aside a 2 MiB event and publishes the events after it', async () => {
    const { seen, relay } = await busWithRecorder(`anvil_test_dl_${newRunId()}`);
    const before = await writeEvent('before');
    const poison = await writeEvent('huge', encodeEvent(USER_DELETED, { user_id: 2, login: 'x'.repeat(2 * 1024 * 1024) }));
    const after = await writeEvent('after');

    await until('the events around the poison one', () => seen.some((e) => e.id === after));
    expect(seen.map((e) => e.id)).toEqual([before, after]);

    // The event after it can reach NATS a moment before the relay's transaction commits.
    const { rows, total } = await until('the dead letter', async () => {
      const page = await listDeadLetters(db, 10);
      return page.rows.length ? page : undefined;
    });
    expect(total).toBe(1);
    expect(rows[0]).toMatchObject({ id: poison, subject: 'identity.user.deleted', type: USER_DELETED });
    expect(rows[0].payload_bytes).toBeGreaterThan(2 * 1024 * 1024);
    expect(rows[0].reason).toMatch(/max_payload/);
    expect(await db.outboxEvent.count({ where: { id: poison } })).toBe(0);
    expect(await metric('anvil_outbox_dead_letters')).toBe(1);
    expect(await metric('anvil_outbox_events_parked_total')).toBe(1);

    // Later writes keep flowing too: the relay is not stuck on anything.
    const later = await writeEvent('later');
    await until('an event written afterwards', () => seen.some((e) => e.id === later));
    // The next test publishes into a namespace of its own, from the same table.
    await relay.stop();
  });

  it('publishes a retried dead letter once the stream accepts it, under its first id', async () => {
    const { namespace, jsm, stream } = await streamWithLimits('dlr', { max_msg_size: STREAM_LIMIT });
    const { seen, relay } = await busWithRecorder(namespace);

    const big = await writeEvent('big', encodeEvent(USER_DELETED, { user_id: 3, login: 'y'.repeat(100 * 1024) }));
    const next = await writeEvent('next');
    await until('the event after the refused one', () => seen.some((e) => e.id === next));
    const parked = await until('the dead letter', async () => (await listDeadLetters(db, 10)).rows.find((r) => r.id === big));
    expect(parked.reason).toMatch(/refused by the stream/);

    // Retrying before the cause is gone parks it again, and nothing else is held up.
    expect(await retryDeadLetters(db, [big])).toEqual([big]);
    await until('the event parked again', async () => (await listDeadLetters(db, 10)).rows.find((r) => r.id === big));

    await jsm.streams.update(stream.name, { ...stream, max_msg_size: -1 });
    expect(await retryDeadLetters(db, [big])).toEqual([big]);
    await until('the retried event on NATS', () => seen.find((e) => e.id === big));
    expect((await listDeadLetters(db, 10)).rows.find((r) => r.id === big)).toBeUndefined();
    await until('the retried event marked sent', async () => (await db.outboxEvent.findUnique({ where: { id: big } }))?.sent_at ?? undefined);
    // The next test publishes into a namespace of its own, from the same table.
    await relay.stop();
  });

  it('leaves an event the stream cannot take yet, and every event after it, unsent and in order until it can', async () => {
    // A full stream that refuses new messages: a cause that goes away.
    const { namespace, jsm, stream } = await streamWithLimits('dlf', { max_msgs: 1, discard: DiscardPolicy.New });
    const { seen } = await busWithRecorder(namespace);

    const first = await writeEvent('first');
    await until('the first event', () => seen.some((e) => e.id === first));
    const held = await writeEvent('held');
    const behind = await writeEvent('behind');
    // Tried twice (the recorder sees each attempt), so the first attempt's transaction is over.
    await until('two attempts at the refused event', () => seen.filter((e) => e.id === held).length >= 2);
    const rows = await db.outboxEvent.findMany({ where: { id: { in: [held, behind] } } });
    expect(rows.map((row) => row.sent_at)).toEqual([null, null]);
    expect(seen.some((e) => e.id === behind)).toBe(false);

    await jsm.streams.update(stream.name, { ...stream, max_msgs: -1 });
    await until('the event behind it on NATS', () => seen.some((e) => e.id === behind));
    const order = seen.map((e) => e.id).filter((id) => id === held || id === behind);
    expect(order.lastIndexOf(held)).toBeLessThan(order.indexOf(behind));
    await until('the event behind it marked sent', async () => (await db.outboxEvent.findUnique({ where: { id: behind } }))?.sent_at ?? undefined);
  });
});

describe('events as built', () => {
  it('never carry a text field longer than the event limit', () => {
    const row = outboxEvent('identity.user.deleted', USER_DELETED, { user_id: 4, login: 'é'.repeat(1024 * 1024) });
    const payload = decodeEvent<{ login: string }>(USER_DELETED, row.payload);
    expect(Buffer.byteLength(payload.login)).toBeLessThanOrEqual(EVENT_TEXT_MAX_BYTES);
    expect(payload.login).toBe('é'.repeat(EVENT_TEXT_MAX_BYTES / 2));
  });

  it('shorten their texts further when many long ones would make the event too large', () => {
    const commits = Array.from({ length: 40 }, (_, i) => ({ id: `${i}`, message: 'm'.repeat(100 * 1024) }));
    const row = outboxEvent('repository.push', 'anvil.repository.v1.Push', { ref: 'refs/heads/main', commits, total_commits: 40 });
    expect(row.payload.length).toBeLessThanOrEqual(EVENT_TARGET_MAX_BYTES);
    const payload = decodeEvent<{ commits: Array<{ message: string }> }>('anvil.repository.v1.Push', row.payload);
    expect(payload.commits).toHaveLength(40);
  });

  it('keep short texts as they are', () => {
    const row = outboxEvent('identity.user.deleted', USER_DELETED, { user_id: 5, login: 'ada' });
    expect(decodeEvent(USER_DELETED, row.payload)).toEqual({ user_id: 5, login: 'ada' });
  });
});

