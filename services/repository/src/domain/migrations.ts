// Migrating a repository from another git server (Gitea's routers/api/v1/repo/migrate.go and
// services/migrations): who may, from where, into which name, and how the clone becomes a
// repository without ever leaving half of one. The git side (fetching through the outbound
// guard) is behind the MigrationGit port.
import { DomainError, alreadyExists, detachedFromCall, forbidden, invalid, type Caller } from '@anvil/kit';
import { canCreateOrgRepository, orgFactsOf, type MemberTeam } from './org-access.js';
import type { Owner } from './owner.js';
import { permissionOf } from './permission.js';
import { parseGoDuration, parseRemoteAddress, type LocalImportPolicy, type RemoteAddress } from './remote-address.js';
import { validateDescription, validateRepositoryName, type Repository } from './repository.js';
import type { RepositoryAccess } from './repositories.js';
import type { RepositoryReader, RepositoryStore, RepositoryWriter } from './store.js';
import type { InternalTracker } from './internal-tracker.js';

/** A migration's own row: the sync schedule of a mirror, the progress of a running clone. */
export interface MigrationRecord {
  repositoryId: number;
  service: string;
  nextSyncAt: Date | null;
  lastError: string;
}

/** A migration record with the repository facts a sync needs (repository row). */
export interface MirrorRecord extends MigrationRecord {
  isMirror: boolean;
  intervalMs: number;
}

export interface MigrationWriter extends RepositoryWriter {
  recordMigration(record: MigrationRecord): Promise<void>;
  /** The clone is in: its progress is cleared and a mirror's first sync scheduled. */
  finishMigration(repositoryId: number, nextSyncAt: Date | null): Promise<void>;
}

export interface MigrationStore extends RepositoryReader, Pick<RepositoryStore, 'publishAlone'> {
  transaction<T>(work: (tx: MigrationWriter) => Promise<T>): Promise<T>;
  findMigration(repositoryId: number): Promise<MirrorRecord | undefined>;
  /** Claims up to `limit` mirrors due at `now`, leasing each for `leaseMs`; their ids. */
  claimDueMirrors(now: Date, leaseMs: number, limit: number): Promise<number[]>;
  mirrorSynced(repositoryId: number, result: { updatedAt: Date | null; nextSyncAt: Date | null; lastError: string }): Promise<void>;
  requestSync(repositoryId: number, at: Date): Promise<void>;
  forgetMigration(repositoryId: number): Promise<void>;
  /** Records a running clone's progress line, which also says it is alive. */
  migrationProgress(repositoryId: number, progress: string): Promise<void>;
  /** Removes repositories still migrating whose clone last reported before `before` (a crash); their ids. */
  removeAbandonedMigrations(before: Date): Promise<number[]>;
}

/** A clone staged away from its name (storage.ts), as createRepository stages a new repository. */
export interface StagedClone {
  /** The remote's default branch when it has branches; undefined for an empty source. */
  head?: string;
  objectFormat: 'sha1' | 'sha256';
  size: number;
  hasBranches: boolean;
  place(owner: string, name: string): Promise<void>;
  settle(): Promise<void>;
  discard(): Promise<void>;
}

export interface MigrationGit {
  /** Checks the remote against [migrations]; throws OutboundRefused (kit) when it is not allowed. */
  check(address: RemoteAddress): Promise<void>;
  /**
   * Fetches the remote into a staged repository; RemoteFetchFailed with a scrubbed message.
   * `progress` hears git's progress lines (a stage and its percent), a few per stage.
   */
  clone(address: RemoteAddress, mirror: boolean, label: string, progress?: (line: string) => void): Promise<StagedClone>;
}

export interface MigrationSettings extends LocalImportPolicy {
  forcePrivate: boolean;
  maxCreationLimit: number;
  defaultBranch: string;
  internalTracker: InternalTracker;
  /** [repository] DISABLE_MIGRATIONS. */
  disableMigrations: boolean;
  /** [mirror] ENABLED and not DISABLE_NEW_PULL. */
  newPullMirrors: boolean;
  defaultIntervalMs: number;
  minIntervalMs: number;
}

export interface MigrationDeps {
  store: MigrationStore;
  git: MigrationGit;
  settings: MigrationSettings;
}

export interface MigrateInput {
  cloneAddr: string;
  authUsername: string;
  authPassword: string;
  authToken: string;
  repoOwner: string;
  repoOwnerId: number;
  repoName: string;
  mirror: boolean;
  mirrorInterval: string;
  private: boolean;
  description: string;
  service: string;
  /** Parts beyond the git data that were asked for (wiki, labels, ...). */
  extras: string[];
}

// Gitea's GitServiceType names; only the git data is migrated from any of them for now.
const SERVICES = new Set(['git', 'gitea', 'gitlab', 'github', 'gogs', 'onedev', 'gitbucket', 'codebase', 'codecommit']);

/** Refusals of the remote that Gitea words as "disallowed hosts". */
export class RemoteRefused extends Error {}

async function ownerFor(store: MigrationStore, input: MigrateInput, caller: Caller): Promise<Owner> {
  const owner = input.repoOwner
    ? await store.findOwnerByLogin(input.repoOwner)
    : await store.findOwnerById(input.repoOwnerId > 0 ? input.repoOwnerId : caller.userId);
  // Gitea answers an unknown owner with 422.
  if (!owner) throw invalid(`user does not exist [name: ${input.repoOwner || input.repoOwnerId}]`, 'owner_not_found');
  return owner;
}

async function requireCreateRight(store: MigrationStore, owner: Owner, caller: Caller): Promise<MemberTeam[]> {
  if (owner.type === 'organization') {
    const teams = await store.memberTeamsOf(caller.userId, [owner.id], []);
    if (!caller.isAdmin && !canCreateOrgRepository(teams, owner.id)) {
      throw forbidden('Given user is not allowed to create repository in organization.', 'org_repo_creation_denied');
    }
    return teams;
  }
  if (!caller.isAdmin && owner.id !== caller.userId) throw forbidden('Given user is not an organization.', 'forbidden');
  return [];
}

function intervalOf(input: MigrateInput, settings: MigrationSettings): number {
  if (!input.mirror) return 0;
  if (!input.mirrorInterval) return settings.defaultIntervalMs;
  const ms = parseGoDuration(input.mirrorInterval);
  if (ms === undefined) throw invalid(`invalid mirror interval: ${input.mirrorInterval}`, 'invalid_mirror_interval');
  // 0 turns periodic syncing off (Gitea); anything else must be at least MIN_INTERVAL.
  if (ms !== 0 && ms < settings.minIntervalMs) throw invalid(`mirror interval is less than the minimum interval`, 'invalid_mirror_interval');
  return ms;
}

/**
 * Migrates `input.cloneAddr` into a new repository. Every check runs before any git data
 * is fetched; the fetch lands in a staging area and reaches the name only inside the
 * transaction that inserts the repository row and its migration row, so a failure at any
 * point (a refused or dying source, a name taken meanwhile, a crash) leaves no repository.
 */
export async function migrateRepository(deps: MigrationDeps, input: MigrateInput, caller: Caller): Promise<RepositoryAccess> {
  const { store, git, settings } = deps;
  if (caller.userId <= 0) throw new DomainError('unauthenticated', 'token is required');
  const owner = await ownerFor(store, input, caller);
  const teams = await requireCreateRight(store, owner, caller);
  validateRepositoryName(input.repoName);
  validateDescription(input.description);
  const service = input.service || 'git';
  if (!SERVICES.has(service)) throw invalid(`unknown service type: ${service}`, 'invalid_service');
  // Only the git data is built so far; Gitea drops the extras for mirrors, and so do we.
  if (!input.mirror && input.extras.length) {
    throw invalid(`migrating ${input.extras.join(', ')} is not supported yet; only the git data can be migrated`, 'migration_part_unsupported');
  }
  const address = parseRemoteAddress(input.cloneAddr, { username: input.authUsername, password: input.authPassword, token: input.authToken }, caller, settings);
  if (input.mirror && address.kind === 'local') throw invalid('a mirror cannot be made of a local path', 'invalid_clone_addr');
  if (input.mirror && !settings.newPullMirrors) throw forbidden('the site administrator has disabled the creation of new pull mirrors', 'mirrors_disabled');
  if (settings.disableMigrations) throw forbidden('the site administrator has disabled migrations', 'migrations_disabled');
  const intervalMs = intervalOf(input, settings);
  try {
    await git.check(address);
  } catch (err) {
    if ((err as { code?: string }).code === 'ANVIL_OUTBOUND_REFUSED') {
      throw invalid('You cannot import from disallowed hosts, please ask the admin to check ALLOWED_DOMAINS/ALLOW_LOCALNETWORKS/BLOCKED_DOMAINS settings.', 'remote_refused');
    }
    throw err;
  }

  const limit = owner.maxRepoCreation >= 0 ? owner.maxRepoCreation : settings.maxCreationLimit;
  if (limit >= 0 && !caller.isAdmin && !owner.isAdmin && (await store.countOwnedBy(owner.id)) >= limit) {
    throw invalid(`You have already reached your limit of ${limit} repositories.`, 'repo_limit_reached');
  }

  // Gitea's RepositoryBeingMigrated: the row comes first, so the name is taken (a second
  // migration to it is 409) and the repository is visible, empty, while the clone runs. Its
  // repo.created event waits for the git data: other services hear of it only once it is whole.
  const placeholder = await store.transaction(async (tx) => {
    const created = await tx.insert({
      owner_id: owner.id, owner_login: owner.login, name: input.repoName, description: input.description, website: '',
      private: input.private || settings.forcePrivate, archived: false, default_branch: settings.defaultBranch,
      object_format_name: 'sha1', template: false, internal_tracker: settings.internalTracker,
      has_issues: true, has_wiki: true, has_pull_requests: true, has_projects: true, has_releases: true, has_packages: true, has_actions: true, has_code: true,
      status: 'migrating', mirror: input.mirror, original_url: address.safeUrl, mirror_interval: intervalMs,
    }, caller.userId);
    await tx.recordMigration({ repositoryId: created.id, service, nextSyncAt: null, lastError: '' });
    return created;
  });
  // Detached from the call: a caller that stops waiting abandons neither the clone nor its undoing.
  const repository = await detachedFromCall(() => runMigrationJob(deps, { placeholder, owner, address, mirror: input.mirror, intervalMs, caller }));
  return { repository, owner, permission: permissionOf({ repository, owner, caller, ...orgFactsOf(teams, owner.id, repository.id) }) };
}

interface MigrationJob {
  placeholder: Repository;
  owner: Owner;
  address: RemoteAddress;
  mirror: boolean;
  intervalMs: number;
  caller: Caller;
}

/**
 * The clone, as a job of its own: it runs to its end whether or not the caller still waits
 * (as Gitea's runs on the server's context, not the request's), reports its progress on the
 * migration row, and ends either with the git data placed at the name and the repository
 * ready, in one transaction, or with nothing left: no row, no git data, no event.
 */
async function runMigrationJob(deps: MigrationDeps, job: MigrationJob): Promise<Repository> {
  const { store, git, settings } = deps;
  const { placeholder, owner, caller } = job;
  const progress = (line: string) => void store.migrationProgress(placeholder.id, line).catch(() => undefined);
  let staged: StagedClone | undefined;
  try {
    staged = await git.clone(job.address, job.mirror, `${owner.login}/${placeholder.name}`, progress).catch((err: Error) => {
      throw err.name === 'RemoteFetchFailed' ? fetchRefusal(err.message) : err;
    });
    const clone = staged;
    const now = new Date();
    const repository = await store.transaction(async (tx) => {
      const final = await tx.update(placeholder.id, {
        status: 'ready', empty: !clone.hasBranches, size: clone.size, default_branch: clone.head ?? settings.defaultBranch,
        object_format_name: clone.objectFormat, mirror_updated_at: job.mirror ? now : null,
      });
      await tx.finishMigration(final.id, job.mirror && job.intervalMs > 0 ? new Date(now.getTime() + job.intervalMs) : null);
      await tx.publish({ kind: 'repo.created', repository: final, actorId: caller.userId });
      try {
        await clone.place(owner.login, placeholder.name);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyExists('The repository with the same name already exists.', 'repo_exists');
        throw err;
      }
      return final;
    });
    await clone.settle().catch(() => undefined);
    return repository;
  } catch (err) {
    await staged?.discard().catch(() => undefined);
    // Gitea's DeleteRepositoryDirectly of a failed migration: the row goes, with no event
    // (none was published for it).
    await store.transaction(async (tx) => tx.remove(placeholder.id)).catch(() => undefined);
    await store.forgetMigration(placeholder.id).catch(() => undefined);
    throw err;
  }
}

/** Gitea's wording for a clone git could not make (its message already scrubbed of credentials). */
export function fetchRefusal(message: string): DomainError {
  // Word-bounded status codes: a port such as 40191 in the message is no 401.
  if (/Authentication failed|could not read Username|\b401\b|\b403 Forbidden/i.test(message)) return invalid(`Authentication failed: ${message}.`, 'remote_auth_failed');
  return invalid(`Migration failed: ${message}.`, 'migration_failed');
}
