// The pieces every service's integration tests (*.int.test.ts) set up the same way on the
// shared PostgreSQL and NATS servers: a database of the run's own with the service's
// migrations, an events namespace of its own, a gRPC server on a free port with clients
// signed by a per-run secret. Each piece returns what it made and a close(); the services'
// testbeds (services/*/test/support/testbed.ts) put them together, and a test file calls
// them in beforeAll/afterAll so its lifecycle stays in sight.
import { randomBytes, randomUUID } from 'node:crypto';
import { connect, headers, nanos, RetentionPolicy, StorageType } from 'nats';
import { encodeEvent } from '@anvil/proto';
import {
  connectEventBus, createServiceClient, dropDatabase, EVENT_TYPE_HEADER, startGrpcServer, streamName,
  type EventBus, type GrpcServerOptions, type Logger, type RunningGrpcServer, type ServiceClient,
} from '@anvil/kit';
import { createMigratedDatabase } from './database-templates.js';
import { withDatabase } from './isolation.js';

export const PG_URL = process.env.ANVIL_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
export const NATS_URL = process.env.ANVIL_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

/** Unique per test file run, so parallel runs on the shared servers never meet: `lq3x9a_1a2b3c`. */
export function newRunId(): string {
  return `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
}

export interface TestDatabase {
  url: string;
  /** Drops the database; call it after every client of it has disconnected. */
  drop(): Promise<void>;
}

/**
 * Creates the database `name` on the test server with the service's migrations applied
 * (cloned from a migrated template: database-templates.ts).
 */
export async function testDatabase(name: string, migrationsDir: string): Promise<TestDatabase> {
  const url = withDatabase(PG_URL, name);
  await createMigratedDatabase(PG_URL, name, migrationsDir);
  return { url, drop: () => dropDatabase(url) };
}

export interface TestEventBus {
  bus: EventBus;
  /** Deletes the namespace's stream and closes the connection. */
  close(): Promise<void>;
}

/**
 * Connects to NATS under `namespace`. With `duplicateWindowMs` the stream is made here with
 * that short a duplicate window (connectEventBus would make it with the kit's long one):
 * a test republishing an event id after the window reaches its consumer again, which is
 * how a redelivery is staged.
 */
export async function testEventBus(
  clientName: string, namespace: string, log: Logger, options: { duplicateWindowMs?: number } = {},
): Promise<TestEventBus> {
  if (options.duplicateWindowMs !== undefined) {
    const nc = await connect({ servers: NATS_URL });
    await (await nc.jetstreamManager()).streams.add({
      name: streamName(namespace),
      subjects: [`${namespace}.>`],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      duplicate_window: nanos(options.duplicateWindowMs),
    });
    await nc.close();
  }
  const bus = await connectEventBus(NATS_URL, clientName, namespace, log);
  return {
    bus,
    close: async () => {
      await bus.jsm.streams.delete(bus.stream).catch(() => undefined);
      await bus.nc.close();
    },
  };
}

/**
 * Publishes one event as another service's outbox relay would (its type in the header, `id`
 * as the Nats-Msg-Id), for a consumer under test. Every event a test publishes is meant to
 * reach the consumer, a repeated id included: a duplicate the stream drops is an error.
 */
export async function publishTestEvent(bus: EventBus, subject: string, type: string, payload: object, id: string = randomUUID()): Promise<string> {
  const h = headers();
  h.set('Nats-Msg-Id', id);
  h.set(EVENT_TYPE_HEADER, type);
  const ack = await bus.nc.jetstream().publish(bus.subject(subject), encodeEvent(type, payload), { headers: h });
  if (ack.duplicate) throw new Error(`the stream dropped event ${id} as a duplicate`);
  return id;
}

type ClientConstructor = Parameters<typeof createServiceClient>[0];

export interface TestGrpcServer {
  server: RunningGrpcServer;
  /** The internal secret callers sign with (for code under test that dials on its own). */
  secret: string;
  /** A client of one of the served services, signed with the server's secret; closed by close(). */
  client<C>(Ctor: ClientConstructor): ServiceClient<C>;
  /** Closes the clients, then shuts the server down. */
  close(): Promise<void>;
}

/** Serves `services` on a free local port with a fresh secret. */
export async function testGrpcServer(services: GrpcServerOptions['services'], log: Logger, options: Pick<GrpcServerOptions, 'domainErrorOf'> = {}): Promise<TestGrpcServer> {
  const secret = randomBytes(32).toString('hex');
  const server = await startGrpcServer({ listen: '127.0.0.1:0', secret, log, services, ...options });
  const clients: Array<{ close(): void }> = [];
  return {
    server,
    secret,
    client<C>(Ctor: ClientConstructor): ServiceClient<C> {
      const client = createServiceClient<C>(Ctor, `127.0.0.1:${server.port}`, secret);
      clients.push(client);
      return client;
    },
    close: async () => {
      for (const client of clients) client.close();
      await server.shutdown(1_000);
    },
  };
}

/**
 * What a testbed opened, undone in the reverse order: a gRPC server before the bus its
 * handlers publish to, the bus before the database, the database before its files.
 */
export class Teardown {
  private readonly steps: Array<() => unknown> = [];

  add(step: () => unknown): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) await step();
  }

  /** Runs `open`; if it throws, undoes what it had opened so far before rethrowing. */
  async guard<T>(open: () => Promise<T>): Promise<T> {
    try {
      return await open();
    } catch (err) {
      await this.run().catch(() => undefined);
      throw err;
    }
  }
}
