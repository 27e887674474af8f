// Integration test: the owner read model follows identity's user events over real NATS
// JetStream into real PostgreSQL, and GetOwner answers from it over real gRPC.
// Needs PostgreSQL (ANVIL_TEST_PG_URL, default the local trust-auth server) and NATS with
// JetStream (ANVIL_TEST_NATS_URL, default nats://127.0.0.1:4222). Each run gets a database and an
// events namespace of its own, removed afterwards.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { stat } from 'node:fs/promises';
import { DomainError, startConsumer, SYSTEM, type EventBus, type Logger, type RunningConsumer, type ServiceClient } from '@anvil/kit';
import { loadAnvilGrpc, type identity, type repository } from '@anvil/proto';
import { identityUserConsumer, IDENTITY_USER_CONSUMER } from '../src/events/identity-user-consumer.js';
import { repositoryGrpcService } from '../src/grpc/repository-service.js';
import type { RepositoryStorage } from '../src/git/storage.js';
import type { RepositoryDb } from '../src/store/db.js';
import { repositoryTestbed, type RepositoryTestbed, type RepositoryTestEvents } from './support/testbed.js';

const DUPLICATE_WINDOW_MS = 200;

let tb: RepositoryTestbed;
let log: Logger;
let db: RepositoryDb;
let storage: RepositoryStorage;
let bus: EventBus;
let publish: RepositoryTestEvents['publish'];
let consumer: RunningConsumer | undefined;
let client: ServiceClient<repository.RepositoryServiceClient>;

// ---- helpers ---------------------------------------------------------------------------

function startOwnerConsumer(): Promise<RunningConsumer> {
  return startConsumer({ ...identityUserConsumer(log, storage), db, bus, log });
}

function user(id: number, login: string, extra: Partial<identity.UserInput> = {}): identity.UserInput {
  return { id, login, full_name: '', email: `${login.toLowerCase()}@example.com`, type: 'user', max_repo_creation: -1, ...extra };
}

const userCreated = (u: identity.UserInput, id?: string) => publish('identity.user.created', 'anvil.identity.v1.UserCreated', { user: u }, id);
const userUpdated = (u: identity.UserInput, id?: string) => publish('identity.user.updated', 'anvil.identity.v1.UserUpdated', { user: u }, id);
const userDeleted = (userId: number, login: string, id?: string) =>
  publish('identity.user.deleted', 'anvil.identity.v1.UserDeleted', { user_id: userId, login }, id);

/** Waits until the consumer has acknowledged every message in the stream. */
async function settled(timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stream = await bus.jsm.streams.info(bus.stream);
    const info = await bus.jsm.consumers.info(bus.stream, IDENTITY_USER_CONSUMER);
    if (info.ack_floor.stream_seq >= stream.state.last_seq && info.num_ack_pending === 0) return;
    if (Date.now() > deadline) throw new Error(`consumer did not catch up: ${JSON.stringify({ last: stream.state.last_seq, floor: info.ack_floor, pending: info.num_pending })}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const pastDuplicateWindow = () => new Promise((resolve) => setTimeout(resolve, DUPLICATE_WINDOW_MS + 100));

const ownerRow = (id: number) => db.owner.findUnique({ where: { id: BigInt(id) } });
const getOwner = (request: repository.GetOwnerRequestInput) => client.GetOwner(request, { caller: SYSTEM });

// ---- setup -----------------------------------------------------------------------------

beforeAll(async () => {
  tb = await repositoryTestbed('owner');
  ({ log, db, storage } = tb);
  // A short duplicate window: a republish of an event id after the window reaches the
  // consumer, which is how a redelivery (handled, but the ack lost) is staged below.
  ({ bus, publish } = await tb.events({ duplicateWindowMs: DUPLICATE_WINDOW_MS }));
  consumer = await startOwnerConsumer();
  const grpc = await tb.serve([repositoryGrpcService(tb.deps)]);
  client = grpc.client<repository.RepositoryServiceClient>(loadAnvilGrpc().anvil.repository.v1.RepositoryService);
}, 30_000);

afterAll(async () => {
  await consumer?.stop();
  await tb?.close();
}, 30_000);

// ---- behaviour -------------------------------------------------------------------------

describe('owner read model fed by identity user events', () => {
  it('adds an owner when identity announces a new user, and GetOwner finds it by id or by login in any case', async () => {
    await userCreated(user(1, 'Alice', { full_name: 'Alice Liddell', is_admin: true, visibility: 2 }));
    await settled();

    expect(await ownerRow(1)).toMatchObject({
      lower_name: 'alice', name: 'Alice', type: 'user', is_admin: true, visibility: 'private',
      full_name: 'Alice Liddell', email: 'alice@example.com',
    });
    expect(await getOwner({ id: 1 })).toEqual({ id: 1, login: 'Alice', type: 'user', is_admin: true });
    expect(await getOwner({ login: 'ALICE' })).toEqual({ id: 1, login: 'Alice', type: 'user', is_admin: true });
  });

  it('keeps organizations apart from users', async () => {
    await userCreated(user(2, 'acme', { type: 'organization', visibility: 1 }));
    await settled();

    expect(await getOwner({ login: 'acme' })).toEqual({ id: 2, login: 'acme', type: 'organization', is_admin: false });
    expect((await ownerRow(2))?.visibility).toBe('limited');
  });

  it('follows a rename and other changes announced by user.updated', async () => {
    await userCreated(user(3, 'bob'));
    await userUpdated(user(3, 'Robert', { full_name: 'Robert Paulson', is_admin: true }));
    await settled();

    expect(await getOwner({ id: 3 })).toEqual({ id: 3, login: 'Robert', type: 'user', is_admin: true });
    expect((await ownerRow(3))?.full_name).toBe('Robert Paulson');
    await expect(getOwner({ login: 'bob' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('removes the owner when identity deletes the user, freeing the login for someone else', async () => {
    await userCreated(user(4, 'carol'));
    await userDeleted(4, 'carol');
    await userCreated(user(5, 'carol'));
    await settled();

    expect(await ownerRow(4)).toBeNull();
    expect(await getOwner({ login: 'carol' })).toMatchObject({ id: 5 });
  });

  it('answers not_found for an owner it has never heard of', async () => {
    const failure = await getOwner({ id: 999 }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(DomainError);
    expect(failure).toMatchObject({ kind: 'not_found', reason: 'owner_not_found' });
    await expect(getOwner({ login: 'nobody' })).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('answers invalid when neither id nor login is given', async () => {
    await expect(getOwner({})).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('applies a redelivered event (same id) only once', async () => {
    await userCreated(user(6, 'dave'));
    const firstUpdate = await userUpdated(user(6, 'dave', { full_name: 'Dave One' }));
    await userUpdated(user(6, 'dave', { full_name: 'Dave Two' }));
    await settled();
    await pastDuplicateWindow();

    // The first update arrives again; applying it again would roll the name back.
    await userUpdated(user(6, 'dave', { full_name: 'Dave One' }), firstUpdate);
    await settled();

    expect((await ownerRow(6))?.full_name).toBe('Dave Two');
    const processed = await db.processedEvent.count({ where: { consumer: IDENTITY_USER_CONSUMER, event_id: firstUpdate } });
    expect(processed).toBe(1);
  });

  it('does not bring back a deleted owner when an older event for it arrives late', async () => {
    await userCreated(user(7, 'erin'));
    await userDeleted(7, 'erin');
    await settled();
    await pastDuplicateWindow();

    await userUpdated(user(7, 'erin', { full_name: 'Erin Late' }));
    await userCreated(user(7, 'erin'));
    await settled();

    expect(await ownerRow(7)).toBeNull();
  });

  it('applies events published while the consumer was stopped once it starts again', async () => {
    await consumer!.stop();
    consumer = undefined;

    await userCreated(user(8, 'frank'));
    await userUpdated(user(8, 'Frankie'));
    await userCreated(user(9, 'grace'));
    const waiting = await bus.jsm.consumers.info(bus.stream, IDENTITY_USER_CONSUMER);
    expect(waiting.num_pending).toBe(3);
    expect(await ownerRow(8)).toBeNull();

    consumer = await startOwnerConsumer();
    await settled();

    expect(await getOwner({ id: 8 })).toMatchObject({ login: 'Frankie' });
    expect(await getOwner({ login: 'grace' })).toMatchObject({ id: 9 });
  });
});

describe('repositories follow their owner', () => {
  it('a renamed user\'s repositories move to the new login; a deleted user\'s repositories are removed', async () => {
    await userCreated(user(501, 'Mover'));
    await settled();
    const mover = { userId: 501, login: 'Mover', isAdmin: false, restricted: false, scopes: ['all'] };
    const created = await client.CreateRepository({ owner_id: 501, name: 'Boxes', auto_init: true }, { caller: mover });
    expect(created.owner).toMatchObject({ id: 501, login: 'Mover' });

    await userUpdated(user(501, 'Moved'));
    await settled();
    const moved = await client.ResolveRepository({ owner: 'moved', name: 'boxes' }, { caller: SYSTEM });
    expect(moved.repository).toMatchObject({ id: created.repository!.id, owner_login: 'Moved' });
    expect(await stat(storage.pathOf('Moved', 'Boxes')).then((s) => s.isDirectory())).toBe(true);
    await expect(stat(storage.pathOf('Mover', 'Boxes'))).rejects.toMatchObject({ code: 'ENOENT' });

    await userDeleted(501, 'Moved');
    await settled();
    expect(await db.repository.count({ where: { owner_id: 501n } })).toBe(0);
    await expect(stat(storage.pathOf('Moved', 'Boxes'))).rejects.toMatchObject({ code: 'ENOENT' });
    const deleted = await db.outboxEvent.findMany({ where: { subject: 'repository.repo.deleted' } });
    expect(deleted).toHaveLength(1);
  });
});
