// The repository service: wiring only (DESIGN.md §2).
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { notFound, runService, subscribeBroadcast, type ServiceDeps } from '@anvil/kit';
import type { RepositoryDeps } from './domain/repositories.js';
import type { TemplateCatalog } from './domain/repo-templates.js';
import { forwardAccessHints } from './events/access-hints.js';
import { identityOrgConsumer } from './events/identity-org-consumer.js';
import { identityUserConsumer } from './events/identity-user-consumer.js';
import { isMissingRepository } from './git/command.js';
import { gitStorage } from './git/git-storage.js';
import { forkHeadGit } from './git/fork-git.js';
import { RepositoryStorage } from './git/storage.js';
import { branchGit } from './git/branch-git.js';
import { PreReceiveHooks } from './git-http/pre-receive.js';
import { startGitHttpServer } from './git-http/server.js';
import { RepositoryWriteLock } from './domain/write-lock.js';
import { RepositorySizes } from './domain/repository-size.js';
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
import { topicGrpcService } from './grpc/topic-service.js';
import { topicStore } from './store/topics.js';
import { starGrpcService } from './grpc/star-service.js';
import { announceEarlierStars, starStore } from './store/stars.js';
import { avatarGrpcService } from './grpc/avatar-service.js';
import { avatarStore } from './store/avatars.js';
import { gitFactsConsumer } from './events/git-facts-consumer.js';
import { gitFactsReader } from './git/git-facts.js';
import { gitFactsStore } from './store/git-facts.js';
import { LicenseDetector, type LicenseTexts } from './domain/licenses.js';
import { backfillGitFacts, type GitFactsDeps } from './domain/git-facts.js';
import { languageStatsStore } from './store/languages.js';
import { languageStatsConsumer } from './events/language-stats-consumer.js';
import type { LanguageDeps } from './domain/language-stats.js';
import { createDb, type RepositoryDb, type RepositoryTx } from './store/db.js';
import { gitObjectGrpcService } from './grpc/git-object-service.js';
import { gitObjectsGit } from './git/objects-git.js';
import { commitGit } from './git/commits-git.js';
import { commitGrpcService } from './grpc/commit-service.js';
import { identityCommitClients, type IdentityCommitClients } from './grpc/identity-commits.js';
import { CommitPeopleCache } from './grpc/commit-people-cache.js';
import { contentGrpcService } from './grpc/content-service.js';
import { contentFiles } from './git/content-git.js';
import { repositoryStore } from './store/repositories.js';
import { templateCatalog } from './git/init-files.js';
import { templateGrpcService } from './grpc/template-service.js';
import { unadoptedGit } from './git/unadopted.js';
import { unadoptedRows } from './store/unadopted.js';
import { unadoptedGrpcService } from './grpc/unadopted-service.js';
import { commitStatusGrpcService } from './grpc/commit-status-service.js';
import { commitStatusStore } from './store/commit-statuses.js';
import type { CommitStatusStore } from './domain/commit-statuses.js';
import { commitStatusGit } from './git/commit-status-git.js';
import { commitStatusCleanupConsumer } from './events/commit-status-cleanup.js';
import { watchCountConsumer } from './events/watch-count-consumer.js';
import { issueCountConsumer } from './events/issue-count-consumer.js';
import { RefIndex } from './git/ref-index.js';
import { gitRefRows } from './store/git-refs.js';
import { pullGitGrpcService } from './grpc/pull-git-service.js';
import { pullGit } from './git/pull-git-port.js';
import { signatureOf } from './domain/signatures.js';
import { mirrorSlice } from './events/mirror-wiring.js';
import { newRepositoryTracker } from './domain/internal-tracker.js';

function domainDeps({ config, db, relay }: ServiceDeps<RepositoryDb>, storage: RepositoryStorage, writeLock: RepositoryWriteLock): RepositoryDeps & { templates: TemplateCatalog } {
  const { repository } = config.settings;
  return {
    store: repositoryStore(db, { onPublished: () => relay.kick() }),
    git: gitStorage(storage, (owner, name) => writeLock.run(owner, name, async () => {}), (owner, name, work) => writeLock.run(owner, name, work)),
    templates: templateCatalog(),
    settings: {
      forcePrivate: repository.FORCE_PRIVATE, maxCreationLimit: repository.MAX_CREATION_LIMIT, defaultBranch: repository.DEFAULT_BRANCH,
      internalTracker: newRepositoryTracker(config.settings.service),
    },
  };
}

/** What the gRPC services, the consumers and the git side channel share, made once. */
interface Wiring {
  deps: RepositoryDeps & { templates: TemplateCatalog };
  storage: RepositoryStorage;
  /** Refs from the database (git/ref-index.ts), rewritten at the end of every write turn. */
  refs: RefIndex;
  /** One turn per repository for pushes and the API's ref writers (domain/write-lock.ts). */
  writeLock: RepositoryWriteLock;
  protections: BranchProtectionStore;
  statuses: CommitStatusStore;
  /** Commit authors and signatures are identity's to answer (one call per page or push). */
  identityCommits: IdentityCommitClients;
  /** Commit authors by e-mail, remembered until an identity user event (grpc/commit-people-cache.ts). */
  commitPeople: CommitPeopleCache;
  sizes: RepositorySizes;
  gitFacts: GitFactsDeps;
  languages: LanguageDeps;
  migrations: ReturnType<typeof mirrorSlice>;
}

async function wire(service: ServiceDeps<RepositoryDb>): Promise<Omit<Wiring, 'migrations'>> {
  const { db, log } = service;
  const storage = new RepositoryStorage(resolve(service.config.dataDir, service.config.settings.repository.ROOT || 'repositories'));
  // Creations a crash interrupted before their row committed (storage.ts, CREATING_MARKER).
  await storage.clearStaging();
  service.onShutdown('cat-file processes', async () => storage.catfile.close());
  // The write lock and the refs index call each other: each turn's end rewrites the refs,
  // and a backfill of the refs takes the repository's turn.
  const writeLock: RepositoryWriteLock = new RepositoryWriteLock({
    afterTurn: async (owner, name) => refs.sync(owner, name),
    takeMove: (owner, name) => refs.takeMove(owner, name),
    onAfterTurnError: (err, repository) => log.warn({ err, repository }, 'writing the refs table failed; reads use git until the next write'),
  });
  const refs = new RefIndex(gitRefRows(db), storage, {
    inTurn: (owner, name, work) => writeLock.run(owner, name, work),
    onError: (err, repository) => log.warn({ err, repository }, 'backfilling the refs table failed'),
  });
  const deps = domainDeps(service, storage, writeLock);
  const identityCommits = identityCommitClients(service.config.addresses.identity, service.secret);
  // The SPDX texts (5 MB) load on the first license file seen, not at start.
  const licenseDetector = new LicenseDetector(() => createRequire(import.meta.url)('spdx-license-list/full') as LicenseTexts);
  return {
    deps, storage, refs, writeLock,
    protections: branchProtectionStore(db),
    statuses: commitStatusStore(db, { onPublished: () => service.relay.kick() }),
    identityCommits,
    commitPeople: new CommitPeopleCache(identityCommits.people),
    sizes: new RepositorySizes(deps.store, (err, repository) => log.warn({ err, repository }, 'measuring a repository\'s size failed')),
    gitFacts: { store: deps.store, git: gitFactsReader(storage, refs), facts: gitFactsStore(db), detector: licenseDetector },
    languages: { store: deps.store, stats: languageStatsStore(db), git: languageGit(storage, refs), table: linguistTable() },
  };
}

/**
 * Starts what runs beside the gRPC services: pre-receive hooks, mirror schedulers, access
 * hints, the git side channel, backfills. Answers the mirror slice's services and consumers.
 */
async function startBackground(service: ServiceDeps<RepositoryDb>, w: Omit<Wiring, 'migrations'>): Promise<Wiring['migrations']> {
  const { log } = service;
  const preReceive = new PreReceiveHooks(resolve(service.config.dataDir, 'repository-hooks'), {
    store: w.deps.store, protections: w.protections, signatures: w.identityCommits.signatures, log,
  });
  await preReceive.install();
  const migrations = mirrorSlice(service, w.deps, w.storage, w.writeLock);
  // Gateways remember resolved repositories; every committed change to them is announced.
  const hints = forwardAccessHints(service.databaseUrl, service.bus, log);
  service.onShutdown('access hints', () => hints.stop());
  // Every replica forgets commit authors on any identity user event (a plain subscription,
  // not the shared durable consumer); the cache's TTL bounds an event it missed.
  const stopPeople = subscribeBroadcast(service.bus, 'identity.user.>', log, () => w.commitPeople.dropAll());
  service.onShutdown('commit people', async () => stopPeople());
  // Packs travel over this HTTP side channel, never inside gRPC (DESIGN.md §3).
  await startGitHttpServer({
    address: service.config.repositoryHttpAddress, secret: service.secret, log, deps: w.deps, storage: w.storage, preReceive, writeLock: w.writeLock, refs: w.refs,
  });
  // Stars from before stars had events are announced once, so identity counts them too.
  void announceEarlierStars(service.db, () => service.relay.kick())
    .then((count) => count && log.info({ count }, 'announced earlier stars'))
    .catch((err: unknown) => log.warn({ err }, 'announcing earlier stars stopped; the next start goes on'));
  // Repositories from before licenses were kept get them now, in the background.
  void backfillGitFacts(w.gitFacts, (err, repository) => log.warn({ err, repository }, 'reading a repository\'s licenses failed'))
    .then((count) => count && log.info({ count }, 'recorded licenses of existing repositories'))
    .catch((err: unknown) => log.warn({ err }, 'recording licenses stopped'));
  // Repositories without rows (created before the table, or by a path outside a write
  // turn) get them in the background; until then their reads go to git.
  void w.refs.backfill().then((count) => count && log.info({ count }, 'refs table backfilled'));
  return migrations;
}

function grpcServices({ db, config, relay }: ServiceDeps<RepositoryDb>, w: Wiring) {
  const { deps, storage, refs, writeLock, protections, statuses, identityCommits, commitPeople } = w;
  const { store } = deps;
  const branches = { store, protections, git: branchGit(storage, identityCommits.signatures, refs) };
  return [
    repositoryGrpcService(deps),
    teamAccessGrpcService(deps),
    tagGrpcService({ store, tags: tagGit(storage, refs), signatures: identityCommits.signatures, writeLock, refs, storage }),
    languageGrpcService({ ...w.languages, refs, storage }),
    topicGrpcService({ store, topics: topicStore(db) }),
    starGrpcService({ store, stars: starStore(db, { onPublished: () => relay.kick() }) }),
    avatarGrpcService({ store, avatars: avatarStore(db), limits: config.settings.picture }),
    templateGrpcService(deps.templates),
    unadoptedGrpcService({ store, rows: unadoptedRows(db), git: unadoptedGit(storage), settings: deps.settings }),
    commitStatusGrpcService({ store, statuses, git: commitStatusGit(storage) }),
    gitObjectGrpcService({ store, git: gitObjectsGit(storage, refs), refs, storage }),
    branchGrpcService({ ...branches, writeLock, refs, storage }),
    commitGrpcService({ store, git: commitGit(storage, refs), people: commitPeople, signatures: identityCommits.signatures, refs, storage }),
    contentGrpcService({ store, protections, files: contentFiles(storage, refs), maxBlobSize: config.settings.api.DEFAULT_MAX_BLOB_SIZE, writeLock, sizes: w.sizes, refs, storage }),
    pullGitGrpcService({
      store, protections, statuses, pullGit: pullGit(storage, refs), writeLock, branches, forkHeads: forkHeadGit(storage),
      signatureOf: (caller) => signatureOf(store, caller),
    }),
    ...w.migrations.services,
  ];
}

await runService<RepositoryDb, RepositoryTx, Wiring>({
  name: 'repository',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
  createDb,
  async beforeServing(service) {
    const wiring = await wire(service);
    return { ...wiring, migrations: await startBackground(service, wiring) };
  },
  grpcServices,
  // A read racing a rename, transfer or deletion of its repository finds no directory: the
  // repository is not there any more, as a request made a moment later would be told.
  domainErrorOf: (err) => (isMissingRepository(err) ? notFound('The target couldn\'t be found.', 'repo_not_found') : undefined),
  consumers: ({ log }, { storage, languages, gitFacts, migrations }) => [
    identityUserConsumer(log, storage),
    identityOrgConsumer(log, storage),
    languageStatsConsumer(log, () => languages),
    gitFactsConsumer(log, () => gitFacts),
    commitStatusCleanupConsumer(),
    watchCountConsumer(),
    issueCountConsumer(),
    ...migrations.consumers,
  ],
});
