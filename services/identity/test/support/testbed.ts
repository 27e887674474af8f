// The identity service's integration testbed: a migrated database of the run's own, and
// on request the outbox relay publishing into a NATS namespace of the run's own (events())
// and a gRPC server (serve()). The file builds its contexts over `db` (passing
// `onPublished` from events() so the relay wakes on each commit) and hands the gRPC
// services to serve(). Call identityTestbed() in beforeAll and close() in afterAll;
// close() undoes everything the testbed opened.
import { fileURLToPath } from 'node:url';
import {
  createLogger, startOutboxRelay,
  type EventBus, type GrpcServerOptions, type Logger, type OutboxRelay,
} from '@anvil/kit';
import { createDb, type IdentityDb } from '../../src/store/db.js';
import { newRunId, Teardown, testDatabase, testEventBus, testGrpcServer, type TestGrpcServer } from '../../../../test/support/int-testbed.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

export interface IdentityTestEvents {
  bus: EventBus;
  relay: OutboxRelay;
  /** The namespace subjects are published under: `<namespace>.identity.user.created`. */
  namespace: string;
  /** For the stores: wakes the relay as soon as a change with events commits. */
  onPublished(): void;
}

export interface IdentityTestbed {
  log: Logger;
  runId: string;
  databaseUrl: string;
  db: IdentityDb;
  /** Starts the outbox relay into a namespace of this run's own; its stream is deleted by close(). */
  events(): Promise<IdentityTestEvents>;
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
    const database = await testDatabase(`anvil_identity_${name}_test_${runId}`, MIGRATIONS_DIR, log);
    teardown.add(() => database.drop());
    const db = createDb(database.url);
    teardown.add(() => db.$disconnect());

    return {
      log, runId, databaseUrl: database.url, db,

      async events() {
        const namespace = `anvil_test_${name}_${runId}`;
        const { bus, close } = await testEventBus(`identity-${name}-test`, namespace, log);
        teardown.add(close);
        // Polls every 100 ms besides the kicks (the service waits a second), so a test never waits long.
        const relay = startOutboxRelay(db, bus, log, 100);
        teardown.add(() => relay.stop());
        return { bus, relay, namespace, onPublished: () => relay.kick() };
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
