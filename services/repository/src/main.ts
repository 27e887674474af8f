// The repository service: wiring only (DESIGN.md §2).
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runService, type ServiceDeps } from '@anvil/kit';
import type { RepositoryDeps } from './domain/repositories.js';
import { identityOrgConsumer } from './events/identity-org-consumer.js';
import { identityUserConsumer } from './events/identity-user-consumer.js';
import { gitStorage } from './git/git-storage.js';
import { RepositoryStorage } from './git/storage.js';
import { branchGit } from './git/branch-git.js';
import { PreReceiveHooks } from './git-http/pre-receive.js';
import { startGitHttpServer } from './git-http/server.js';
import { branchGrpcService } from './grpc/branch-service.js';
import { branchProtectionStore } from './store/branch-protections.js';
import type { BranchProtectionStore } from './domain/branch-protection-store.js';
import { repositoryGrpcService } from './grpc/repository-service.js';
import { teamAccessGrpcService } from './grpc/team-access-service.js';
import { tagGrpcService } from './grpc/tag-service.js';
import { tagGit } from './git/tag-git.js';
import { languageGit } from './git/language-git.js';
import { linguistTable } from './git/linguist-table.js';
import { languageGrpcService } from './grpc/language-service.js';
import { languageStatsStore } from './store/languages.js';
import { languageStatsConsumer } from './events/language-stats-consumer.js';
import type { LanguageDeps } from './domain/language-stats.js';
import { createDb, type RepositoryDb, type RepositoryTx } from './store/db.js';
import { contentGrpcService } from './grpc/content-service.js';
import { contentFiles } from './git/content-git.js';
import { repositoryStore } from './store/repositories.js';

function domainDeps({ config, db, relay }: ServiceDeps<RepositoryDb>, storage: RepositoryStorage): RepositoryDeps {
  const { repository } = config.settings;
  return {
    store: repositoryStore(db, { onPublished: () => relay.kick() }),
    git: gitStorage(storage),
    settings: { forcePrivate: repository.FORCE_PRIVATE, maxCreationLimit: repository.MAX_CREATION_LIMIT, defaultBranch: repository.DEFAULT_BRANCH },
  };
}

let deps: RepositoryDeps | undefined;
let db: RepositoryDb | undefined;
let storage: RepositoryStorage | undefined;
let protections: BranchProtectionStore | undefined;
let maxBlobSize: number | undefined;

function languageDeps(): LanguageDeps {
  return { store: deps!.store, stats: languageStatsStore(db!), git: languageGit(storage!), table: linguistTable() };
}

await runService<RepositoryDb, RepositoryTx>({
  name: 'repository',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  createDb,
  async beforeServing(service) {
    storage = new RepositoryStorage(resolve(service.config.dataDir, service.config.settings.repository.ROOT || 'repositories'));
    deps = domainDeps(service, storage);
    db = service.db;
    protections = branchProtectionStore(service.db);
    maxBlobSize = service.config.settings.api.DEFAULT_MAX_BLOB_SIZE;
    const preReceive = new PreReceiveHooks(resolve(service.config.dataDir, 'repository-hooks'), { store: deps.store, protections, log: service.log });
    await preReceive.install();
    // Packs travel over this HTTP side channel, never inside gRPC (DESIGN.md §3).
    await startGitHttpServer({ address: service.config.repositoryHttpAddress, secret: service.secret, log: service.log, deps, storage, preReceive });
  },
  grpcServices: () => [
    repositoryGrpcService(deps!),
    teamAccessGrpcService(deps!),
    tagGrpcService({ store: deps!.store, tags: tagGit(storage!) }),
    languageGrpcService(languageDeps()),
    branchGrpcService({ store: deps!.store, protections: protections!, git: branchGit(storage!) }),
    contentGrpcService({ store: deps!.store, protections: protections!, files: contentFiles(storage!), maxBlobSize: maxBlobSize! }),
  ],
  consumers: ({ log }) => [
    identityUserConsumer(log, storage),
    identityOrgConsumer(log, storage),
    languageStatsConsumer(log, languageDeps),
  ],
});
