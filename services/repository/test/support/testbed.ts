// The repository service's integration testbed: a migrated database of the run's own, a
// temporary storage root for bare repositories, the repository rules wired over both, and
// helpers to add owners. A file that needs more asks for it: events() for a NATS
// namespace of its own, serve() for a gRPC server. Call repositoryTestbed() in beforeAll
// and close() in afterAll; close() undoes everything the testbed opened.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { headers } from 'nats';
import { createLogger, EVENT_TYPE_HEADER, type Caller, type EventBus, type GrpcServerOptions, type Logger } from '@anvil/kit';
import { encodeEvent } from '@anvil/proto';
import type { RepositoryDeps, RepositorySettings } from '../../src/domain/repositories.js';
import { gitStorage } from '../../src/git/git-storage.js';
import { RepositoryStorage } from '../../src/git/storage.js';
import { createDb, type RepositoryDb } from '../../src/store/db.js';
import { repositoryStore } from '../../src/store/repositories.js';
import { newRunId, Teardown, testDatabase, testEventBus, testGrpcServer, type TestGrpcServer } from '../../../../test/support/int-testbed.js';
import { DEFAULT_INTERNAL_TRACKER } from '../../src/domain/internal-tracker.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

/** Gitea's defaults: no forced privacy, no creation limit, `main`. */
export const DEFAULT_SETTINGS: RepositorySettings = { forcePrivate: false, maxCreationLimit: -1, defaultBranch: 'main', internalTracker: { ...DEFAULT_INTERNAL_TRACKER } };

/** A signed-in user with every token scope. */
export const caller = (userId: number, login: string, isAdmin = false): Caller =>
  ({ userId, login, isAdmin, restricted: false, scopes: ['all'] });

export interface RepositoryTestEvents {
  bus: EventBus;
  /** Publishes an event straight to the stream, as identity's outbox relay does; resolves to its id. */
  publish(subject: string, type: string, payload: object, id?: string): Promise<string>;
}

export interface RepositoryTestbed {
  log: Logger;
  runId: string;
  databaseUrl: string;
  db: RepositoryDb;
  /** The temporary directory; bare repositories live in `<dir>/repositories`. */
  dir: string;
  storage: RepositoryStorage;
  /** The repository rules over this database and storage, with DEFAULT_SETTINGS. */
  deps: RepositoryDeps;
  /** Adds a user row to the owner read model (as identity's events would) and returns it as a caller. */
  owner(id: number, login: string, maxRepoCreation?: number): Promise<Caller>;
  /** A NATS namespace of this run's own, its stream deleted by close(). */
  events(options?: { duplicateWindowMs?: number }): Promise<RepositoryTestEvents>;
  /** Serves `services` over gRPC until close(). */
  serve(services: GrpcServerOptions['services']): Promise<TestGrpcServer>;
  close(): Promise<void>;
}

/** `name` tells this file's database, directory and namespace apart from other files' (`repos`, `audit`). */
export async function repositoryTestbed(name: string): Promise<RepositoryTestbed> {
  process.env.ANVIL_LOG_LEVEL ??= 'silent';
  const log = createLogger('repository-test');
  const runId = newRunId();
  const teardown = new Teardown();
  return teardown.guard(async () => {
    const dir = await mkdtemp(join(tmpdir(), `anvil-${name}-int-`));
    teardown.add(() => rm(dir, { recursive: true, force: true }));
    const database = await testDatabase(`anvil_repository_${name}_test_${runId}`, MIGRATIONS_DIR);
    teardown.add(() => database.drop());
    const db = createDb(database.url);
    teardown.add(() => db.$disconnect());
    const storage = new RepositoryStorage(join(dir, 'repositories'));

    return {
      log, runId, databaseUrl: database.url, db, dir, storage,
      deps: { store: repositoryStore(db), git: gitStorage(storage), settings: DEFAULT_SETTINGS },

      async owner(id, login, maxRepoCreation = -1) {
        await db.owner.create({
          data: { id: BigInt(id), lower_name: login.toLowerCase(), name: login, type: 'user', email: `${login}@example.com`, max_repo_creation: maxRepoCreation },
        });
        return caller(id, login);
      },

      async events(options = {}) {
        const events = await testEventBus('repository-test', `anvil_test_repository_${name}_${runId}`, log, options);
        teardown.add(() => events.close());
        const { bus } = events;
        return {
          bus,
          async publish(subject, type, payload, id = randomUUID()) {
            const h = headers();
            h.set('Nats-Msg-Id', id);
            h.set(EVENT_TYPE_HEADER, type);
            const ack = await bus.nc.jetstream().publish(bus.subject(subject), encodeEvent(type, payload), { headers: h });
            // Every event a test publishes is meant to reach its consumer, a repeated id included.
            if (ack.duplicate) throw new Error(`the stream dropped event ${id} as a duplicate`);
            return id;
          },
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
