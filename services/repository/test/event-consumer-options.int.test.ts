// Integration test: what a consumer may say about the events it takes (kit ConsumerOptions),
// over real NATS JetStream and PostgreSQL. An event it does not want is acked without a
// transaction or a processed_event row; an idempotent consumer handles events without one;
// every other consumer still records each event it handled, so a redelivery is skipped.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startConsumer, type ConsumerOptions, type EventBus, type ReceivedEvent, type RunningConsumer } from '@anvil/kit';
import type { repository as pb } from '@anvil/proto';
import type { RepositoryTx } from '../src/store/db.js';
import { repositoryTestbed, type RepositoryTestbed, type RepositoryTestEvents } from './support/testbed.js';

let tb: RepositoryTestbed;
let bus: EventBus;
let publish: RepositoryTestEvents['publish'];
const running: RunningConsumer[] = [];

beforeAll(async () => {
  tb = await repositoryTestbed('consumeropts');
  ({ bus, publish } = await tb.events());
}, 30_000);

afterAll(async () => {
  for (const consumer of running) await consumer.stop();
  await tb?.close();
}, 30_000);

const repository = { id: 7, owner_login: 'ada', name: 'tracked', default_branch: 'main' };
const push = (ref: string) => publish('repository.push', 'anvil.repository.v1.Push', { repository, ref, before: '0'.repeat(40), after: 'a'.repeat(40), commits: [], total_commits: 0 });

async function caughtUp(durable: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const stream = await bus.jsm.streams.info(bus.stream);
    const info = await bus.jsm.consumers.info(bus.stream, durable);
    if (info.ack_floor.stream_seq >= stream.state.last_seq && info.num_ack_pending === 0) return;
    if (Date.now() > deadline) throw new Error(`${durable} did not catch up`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function consume(durable: string, options: Partial<ConsumerOptions<RepositoryTx>>): Promise<string[]> {
  const handled: string[] = [];
  running.push(await startConsumer<RepositoryTx>({
    durable, filter: 'repository.push', db: tb.db, bus, log: tb.log,
    async handle(event: ReceivedEvent) {
      handled.push((event.payload as pb.Push).ref);
    },
    ...options,
  }));
  return handled;
}

const recorded = async (durable: string) => Number((await tb.db.$queryRawUnsafe<Array<{ n: bigint }>>('SELECT count(*) AS n FROM processed_event WHERE consumer = $1', durable))[0].n);
const toMain = (event: ReceivedEvent) => (event.payload as pb.Push).ref === 'refs/heads/main';

describe('consumer options', () => {
  it('acks the events a consumer does not want without handling or recording them', async () => {
    const handled = await consume('wants-main', { wants: toMain });
    await push('refs/heads/topic');
    await push('refs/heads/main');
    await caughtUp('wants-main');
    expect(handled).toEqual(['refs/heads/main']);
    expect(await recorded('wants-main')).toBe(1);
  });

  it('handles every event of an idempotent consumer without a processed_event row', async () => {
    const handled = await consume('idempotent-main', { wants: toMain, idempotent: true });
    await push('refs/heads/main');
    await push('refs/heads/other');
    await caughtUp('idempotent-main');
    expect(handled).toEqual(['refs/heads/main', 'refs/heads/main']); // the earlier test's push too
    expect(await recorded('idempotent-main')).toBe(0);
  });

  it('keeps recording each event a plain consumer handles, batched or not', async () => {
    const handled = await consume('plain', { batch: 8 });
    await caughtUp('plain');
    expect(handled).toHaveLength(4);
    expect(await recorded('plain')).toBe(4);
  });
});
