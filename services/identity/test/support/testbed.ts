// The identity service's integration testbed: a migrated database of the run's own, and
// on request the outbox relay publishing into a NATS namespace of the run's own, with
// every identity event published there recorded (events()), and a gRPC server (serve()). The file builds its contexts over `db` (passing
// `onPublished` from events() so the relay wakes on each commit) and hands the gRPC
// services to serve(). Call identityTestbed() in beforeAll and close() in afterAll;
// close() undoes everything the testbed opened.
import { fileURLToPath } from 'node:url';
import {
  createLogger, EVENT_TYPE_HEADER, startOutboxRelay,
  type EventBus, type GrpcServerOptions, type Logger, type OutboxRelay,
} from '@anvil/kit';
import { decodeEvent } from '@anvil/proto';
import { createDb, type IdentityDb } from '../../src/store/db.js';
import {
  newRunId, publishTestEvent, Teardown, testDatabase, testEventBus, testGrpcServer, type TestGrpcServer,
} from '../../../../test/support/int-testbed.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

/** One event as it reached NATS; `subject` without the namespace: `identity.user.created`. */
export interface SeenEvent {
  subject: string;
  type: string;
  /** The Nats-Msg-Id header: the outbox row's id. */
  id: string;
  payload: Record<string, any>;
}

export interface IdentityTestEvents {
  bus: EventBus;
  relay: OutboxRelay;
  /** For the stores: wakes the relay as soon as a change with events commits. */
  onPublished(): void;
  /** Every `identity.>` event published since events() was called, in arrival order. */
  seen: SeenEvent[];
  /** The first event on `subject` whose payload matches, waiting up to 5 s for it to arrive. */
  eventOf(subject: string, match: (payload: Record<string, any>) => boolean): Promise<SeenEvent>;
  /** Publishes another service's event (`repository.star.added`) for identity's consumers; answers its id. */
  publish(subject: string, type: string, payload: object, id?: string): Promise<string>;
}

export interface IdentityTestbed {
  log: Logger;
  runId: string;
  databaseUrl: string;
  db: IdentityDb;
  /**
   * Starts the outbox relay into a namespace of this run's own; its stream is deleted by
   * close(). A short `duplicateWindowMs` lets a test republish an event id (a redelivery).
   */
  events(options?: { duplicateWindowMs?: number }): Promise<IdentityTestEvents>;
  /** Serves `services` over gRPC until close(). */
  serve(services: GrpcServerOptions['services']): Promise<TestGrpcServer>;
  close(): Promise<void>;
}

/** `name` tells this file's database and namespace apart from other files' (`orgs`, `gpg`). */
export async function identityTestbed(name: string): Promise<IdentityTestbed> {
  process.env.ANVIL_LOG_LEVEL ??= 'silent';
  const log = createLogger(`identity-${name}-test`);
  const runId = newRunId();
  const teardown = new Teardown();
  return teardown.guard(async () => {
    const database = await testDatabase(`anvil_identity_${name}_test_${runId}`, MIGRATIONS_DIR);
    teardown.add(() => database.drop());
    const db = createDb(database.url);
    teardown.add(() => db.$disconnect());

    return {
      log, runId, databaseUrl: database.url, db,

      async events(options = {}) {
        const namespace = `anvil_test_${name}_${runId}`;
        const { bus, close } = await testEventBus(`identity-${name}-test`, namespace, log, options);
        teardown.add(close);
        // Listening starts before the relay does, so no event is missed.
        const seen: SeenEvent[] = [];
        const sub = bus.nc.subscribe(bus.subject('identity.>'));
        teardown.add(() => sub.unsubscribe());
        void (async () => {
          for await (const m of sub) {
            const type = m.headers?.get(EVENT_TYPE_HEADER) ?? '';
            seen.push({ subject: m.subject.slice(namespace.length + 1), type, id: m.headers?.get('Nats-Msg-Id') ?? '', payload: decodeEvent(type, m.data) });
          }
        })();
        // Polls every 100 ms besides the kicks (the service waits a second), so a test never waits long.
        const relay = startOutboxRelay(db, bus, log, 100);
        teardown.add(() => relay.stop());

        async function eventOf(subject: string, match: (payload: Record<string, any>) => boolean): Promise<SeenEvent> {
          const deadline = Date.now() + 5_000;
          for (;;) {
            const found = seen.find((e) => e.subject === subject && match(e.payload));
            if (found) return found;
            if (Date.now() > deadline) throw new Error(`timed out waiting for ${subject}; saw ${JSON.stringify(seen.map((e) => e.subject))}`);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        }
        return {
          bus, relay, onPublished: () => relay.kick(), seen, eventOf,
          publish: (subject, type, payload, id) => publishTestEvent(bus, subject, type, payload, id),
        };
      },

      async serve(services) {
        const grpc = await testGrpcServer(services, log);
        teardown.add(() => grpc.close());
        return grpc;
      },

      close: () => teardown.run(),
    };
  });
}
