// Builds the migrations and mirrors slice from the service's config (kept out of main.ts,
// which only registers it): the outbound guard from [migrations], the mirror settings, the
// scheduler and the gRPC service.
import type { ConsumerOptions, ServiceDeps, ServiceImplementation } from '@anvil/kit';
import type { repository as pb } from '@anvil/proto';
import type { MigrationDeps } from '../domain/migrations.js';
import { parseGoDuration } from '../domain/remote-address.js';
import type { RepositoryDeps } from '../domain/repositories.js';
import type { RepositoryWriteLock } from '../domain/write-lock.js';
import { migrationGit } from '../git/migration-git.js';
import { syncMirror } from '../git/mirror-sync.js';
import { RemoteGuard } from '../git/remote-guard.js';
import { credentialSeal } from '../git/credential-seal.js';
import type { RepositoryStorage } from '../git/storage.js';
import { migrationGrpcService } from '../grpc/migration-service.js';
import type { RepositoryDb, RepositoryTx } from '../store/db.js';
import { pushMirrorOnCommitConsumer } from './push-mirror-on-commit.js';
import { migrationStore } from '../store/migrations.js';
import { pushMirrorStore } from '../store/push-mirrors.js';
import { pushMirrorGit } from '../git/push-mirror-git.js';
import { pushMirrorGrpcService } from '../grpc/push-mirror-service.js';
import { MirrorScheduler } from './mirror-scheduler.js';
import { startMigrationSweeper } from './migration-sweeper.js';
import { pushDueMirror, type DuePushMirror, type PushMirrorDeps } from '../domain/push-mirrors.js';

function durationSetting(name: string, value: string): number {
  const ms = parseGoDuration(value);
  if (ms === undefined) throw new Error(`${name} is not a duration such as 8h or 10m: ${value}`);
  return ms;
}

export interface MirrorSlice {
  services: MigrationGrpcServices;
  consumers: Array<Omit<ConsumerOptions<RepositoryTx>, 'db' | 'bus' | 'log'>>;
}

export type MigrationGrpcServices = [
  { name: string; definition: pb.MigrationServiceDefinition; implementation: ServiceImplementation<pb.MigrationServiceHandlers> },
  { name: string; definition: pb.PushMirrorServiceDefinition; implementation: ServiceImplementation<pb.PushMirrorServiceHandlers> },
];

export function mirrorSlice(service: ServiceDeps<RepositoryDb>, repositories: RepositoryDeps, storage: RepositoryStorage, writeLock: RepositoryWriteLock): MirrorSlice {
  const { migrations, mirror, repository, security } = service.config.settings;
  const store = migrationStore(service.db, repositories.store, { onPublished: () => service.relay.kick() });
  const guard = new RemoteGuard({ allowLocalNetworks: migrations.ALLOW_LOCALNETWORKS, allowedDomains: migrations.ALLOWED_DOMAINS, blockedDomains: migrations.BLOCKED_DOMAINS });
  const stallTimeoutMs = migrations.STALL_TIMEOUT * 1000;
  const seal = credentialSeal(security.INTERNAL_TOKEN!);
  const deps: MigrationDeps = {
    store,
    git: migrationGit({ storage, guard, seal, log: service.log, defaultBranch: repository.DEFAULT_BRANCH, stallTimeoutMs }),
    settings: {
      forcePrivate: repository.FORCE_PRIVATE, maxCreationLimit: repository.MAX_CREATION_LIMIT, defaultBranch: repository.DEFAULT_BRANCH,
      internalTracker: repositories.settings.internalTracker,
      disableMigrations: repository.DISABLE_MIGRATIONS, newPullMirrors: mirror.ENABLED && !mirror.DISABLE_NEW_PULL,
      defaultIntervalMs: durationSetting('[mirror] DEFAULT_INTERVAL', mirror.DEFAULT_INTERVAL),
      minIntervalMs: durationSetting('[mirror] MIN_INTERVAL', mirror.MIN_INTERVAL),
      importLocalPaths: security.IMPORT_LOCAL_PATHS, allowedLocalRoot: migrations.ALLOWED_LOCAL_ROOT,
    },
  };
  const stopSweeper = startMigrationSweeper(store, service.log, stallTimeoutMs * 2 + 60_000, 60_000);
  service.onShutdown('migration sweeper', async () => stopSweeper());
  // Existing mirrors keep syncing with [mirror] ENABLED=false; only new ones are refused.
  const scheduler = new MirrorScheduler<number>({
    claim: (now, leaseMs, limit) => store.claimDueMirrors(now, leaseMs, limit), log: service.log, tickMs: 30_000, leaseMs: Math.max(stallTimeoutMs * 2, 10 * 60_000), concurrency: 2,
    sync: (id) => syncMirror({ store, repositories, storage, guard, seal, writeLock, log: service.log, stallTimeoutMs }, id),
  });
  scheduler.start();
  service.onShutdown('mirror scheduler', () => scheduler.stop());
  const pushDeps: PushMirrorDeps = {
    repositories: repositories.store, mirrors: pushMirrorStore(service.db), git: pushMirrorGit(storage, guard, seal, writeLock, service.log, stallTimeoutMs),
    settings: { enabled: mirror.ENABLED, newPushMirrors: !mirror.DISABLE_NEW_PUSH, minIntervalMs: deps.settings.minIntervalMs },
  };
  // Push mirrors on their interval, claimed the same way (a lease per push mirror).
  const pushScheduler = new MirrorScheduler<DuePushMirror>({
    claim: (now, leaseMs, limit) => pushDeps.mirrors.claimDue(now, leaseMs, limit), log: service.log,
    tickMs: 30_000, leaseMs: Math.max(stallTimeoutMs * 2, 10 * 60_000), concurrency: 2,
    sync: (job) => pushDueMirror(pushDeps, job, service.log),
  });
  pushScheduler.start();
  service.onShutdown('push mirror scheduler', () => pushScheduler.stop());
  const pushMirrors = pushMirrorGrpcService(pushDeps);
  return {
    services: [migrationGrpcService({ ...deps, kickScheduler: () => scheduler.kick() }), pushMirrors],
    consumers: [pushMirrorOnCommitConsumer(service.log, (id) => pushDeps.mirrors.markDueAfterPush(id), () => pushScheduler.kick())],
  };
}
