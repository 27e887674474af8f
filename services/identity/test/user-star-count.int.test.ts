// Integration test: a user's star count (Gitea's num_stars, the JSON's starred_repos_count)
// follows repository's star events over real NATS JetStream into real PostgreSQL, and GetUser
// reports it over real gRPC. Needs PostgreSQL (ANVIL_TEST_PG_URL) and NATS with JetStream
// (ANVIL_TEST_NATS_URL); each run gets a database and an events namespace of its own.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { startConsumer, SYSTEM, type EventBus, type RunningConsumer, type ServiceClient } from '@anvil/kit';
import { decodeEvent, loadAnvilGrpc, type identity, type repository } from '@anvil/proto';
import type { Identity } from '../src/domain/context.js';
import { argon2Hasher } from '../src/domain/password.js';
import { starCountConsumer, STAR_COUNT_CONSUMER } from '../src/events/star-count-consumer.js';
import { identityGrpcService } from '../src/grpc/identity-service.js';
import { identityStore } from '../src/store/identity-store.js';
import { TEST_SETTINGS } from './support/memory-store.js';
import { identityTestbed, type IdentityTestbed, type IdentityTestEvents } from './support/testbed.js';

let tb: IdentityTestbed;
let bus: EventBus;
let publish: IdentityTestEvents['publish'];
let consumer: RunningConsumer | undefined;
let client: ServiceClient<identity.IdentityServiceClient>;

// ---- helpers ---------------------------------------------------------------------------

const STAR_CHANGED = 'anvil.repository.v1.StarChanged';

const starred = (userId: number, repositoryId: number, id?: string) =>
  publish('repository.star.added', STAR_CHANGED, { user_id: userId, repository_id: repositoryId, star: true } satisfies repository.StarChangedInput, id);
const unstarred = (userId: number, repositoryId: number, id?: string) =>
  publish('repository.star.removed', STAR_CHANGED, { user_id: userId, repository_id: repositoryId, star: false } satisfies repository.StarChangedInput, id);

/**
 * Waits until the consumer has acknowledged every star event published so far (the stream
 * also holds identity's own events, which it does not take).
 */
async function settled(timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = await bus.jsm.consumers.info(bus.stream, STAR_COUNT_CONSUMER);
    if (info.num_pending === 0 && info.num_ack_pending === 0) return;
    if (Date.now() > deadline) throw new Error(`consumer did not catch up: ${JSON.stringify({ pending: info.num_pending, unacked: info.num_ack_pending })}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Publishes an event id the stream has seen before, once its duplicate window lets it through:
 * how a redelivery (handled, but the ack lost) reaches the consumer.
 */
async function republish(send: () => Promise<string>): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await send();
      return;
    } catch (err) {
      if (!String(err).includes('duplicate') || Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

let counter = 0;
async function newUser(): Promise<identity.User> {
  const login = `stargazer${++counter}_${tb.runId.slice(-4)}`;
  return client.CreateUser({ login, email: `${login}@example.com`, password: `pw-${login}-secret` }, { caller: SYSTEM });
}

const numStars = async (id: number) => Number((await client.GetUser({ id }, { caller: SYSTEM })).num_stars);

// ---- setup -----------------------------------------------------------------------------

beforeAll(async () => {
  tb = await identityTestbed('stars');
  const events = await tb.events({ duplicateWindowMs: 200 });
  ({ bus, publish } = events);
  const ctx: Identity = { store: identityStore(tb.db, { onPublished: events.onPublished }), hasher: argon2Hasher(), settings: TEST_SETTINGS };
  const grpc = await tb.serve([identityGrpcService(ctx)]);
  client = grpc.client<identity.IdentityServiceClient>(loadAnvilGrpc().anvil.identity.v1.IdentityService);
  consumer = await startConsumer({ ...starCountConsumer(), db: tb.db, bus, log: tb.log });
}, 30_000);

afterAll(async () => {
  await consumer?.stop();
  await tb?.close();
}, 30_000);

// ---- behaviour -------------------------------------------------------------------------

describe('a user\'s star count', () => {
  it('starts at zero for a new user', async () => {
    const user = await newUser();
    expect(user.num_stars).toBe(0);
  });

  it('counts the repositories the user stars and unstars, as repository announces them', async () => {
    const ada = await newUser();
    const bob = await newUser();
    await starred(ada.id, 101);
    await starred(ada.id, 102);
    await starred(bob.id, 101);
    await unstarred(ada.id, 101);
    await settled();

    expect(await numStars(ada.id)).toBe(1);
    expect(await numStars(bob.id)).toBe(1);
  });

  it('applies a redelivered event once', async () => {
    const user = await newUser();
    const id = await starred(user.id, 201);
    await settled();
    await republish(() => starred(user.id, 201, id));
    await settled();

    expect(await numStars(user.id)).toBe(1);
  });

  it('never counts below zero, and leaves the user\'s updated_at alone', async () => {
    const user = await newUser();
    const before = await tb.db.user.findUniqueOrThrow({ where: { id: BigInt(user.id) }, select: { updated_at: true } });
    await unstarred(user.id, 401);
    await starred(user.id, 402);
    await settled();

    const after = await tb.db.user.findUniqueOrThrow({ where: { id: BigInt(user.id) }, select: { updated_at: true, num_stars: true } });
    expect(after).toEqual({ updated_at: before.updated_at, num_stars: 1 });
  });

  it('announces the user with the new count, so other services\' read models show it', async () => {
    const user = await newUser();
    await starred(user.id, 601);
    await starred(user.id, 602);
    await settled();

    const rows = await tb.db.outboxEvent.findMany({ where: { subject: 'identity.user.updated' }, orderBy: { seq: 'asc' } });
    const counts = rows.map((row) => decodeEvent<identity.UserUpdated>(row.type, row.payload).user!)
      .filter((announced) => Number(announced.id) === user.id).map((announced) => announced.num_stars);
    expect(counts).toEqual([1, 2]);
  });

  it('ignores events about a user identity does not have', async () => {
    await starred(999_999, 501);
    await settled();

    expect(await tb.db.user.count({ where: { id: BigInt(999_999) } })).toBe(0);
  });
});
