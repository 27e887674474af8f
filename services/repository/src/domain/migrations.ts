// Migrating a repository from another git server (Gitea's routers/api/v1/repo/migrate.go and
// services/migrations): who may, from where, into which name, and how the clone becomes a
// repository without ever leaving half of one. The git side (fetching through the outbound
// guard) is behind the MigrationGit port.
import { DomainError, alreadyExists, forbidden, invalid, type Caller } from '@anvil/kit';
import { canCreateOrgRepository, orgFactsOf, type MemberTeam } from './org-access.js';
import type { Owner } from './owner.js';
import { permissionOf } from './permission.js';
import { parseGoDuration, parseRemoteAddress, type LocalImportPolicy, type RemoteAddress } from './remote-address.js';
import { validateDescription, validateRepositoryName, type Repository } from './repository.js';
import type { RepositoryAccess } from './repositories.js';
import type { RepositoryReader, RepositoryWriter } from './store.js';

export interface MigrationRecord {
  repositoryId: number;
  originalUrl: string;
  service: string;
  isMirror: boolean;
  intervalMs: number;
  updatedAt: Date | null;
  nextSyncAt: Date | null;
  lastError: string;
}

export interface MigrationWriter extends RepositoryWriter {
  recordMigration(record: MigrationRecord): Promise<void>;
}

export interface MigrationStore extends RepositoryReader {
  transaction<T>(work: (tx: MigrationWriter) => Promise<T>): Promise<T>;
  findMigration(repositoryId: number): Promise<MigrationRecord | undefined>;
  findMigrations(repositoryIds: number[]): Promise<Map<number, MigrationRecord>>;
  /** Claims up to `limit` mirrors due at `now`, leasing each for `leaseMs`; their ids. */
  claimDueMirrors(now: Date, leaseMs: number, limit: number): Promise<number[]>;
  mirrorSynced(repositoryId: number, result: { updatedAt: Date | null; nextSyncAt: Date | null; lastError: string }): Promise<void>;
  requestSync(repositoryId: number, at: Date): Promise<void>;
  forgetMigration(repositoryId: number): Promise<void>;
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
  /** Fetches the remote into a staged repository; RemoteFetchFailed with a scrubbed message. */
  clone(address: RemoteAddress, mirror: boolean, label: string): Promise<StagedClone>;
}

export interface MigrationSettings extends LocalImportPolicy {
  forcePrivate: boolean;
  maxCreationLimit: number;
  defaultBranch: string;
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
  if (await store.findByName(owner.login, input.repoName)) throw alreadyExists('The repository with the same name already exists.', 'repo_exists');

  const staged = await git.clone(address, input.mirror, `${owner.login}/${input.repoName}`).catch((err: Error) => {
    throw err.name === 'RemoteFetchFailed' ? fetchRefusal(err.message) : err;
  });
  try {
    const now = new Date();
    const repository: Repository = await store.transaction(async (tx) => {
      const created = await tx.insert({
        owner_id: owner.id, owner_login: owner.login, name: input.repoName, description: input.description, website: '',
        private: input.private || settings.forcePrivate, archived: false, default_branch: staged.head ?? settings.defaultBranch,
        object_format_name: staged.objectFormat, template: false,
        has_issues: true, has_wiki: true, has_pull_requests: true, has_projects: true, has_releases: true, has_packages: true, has_actions: true, has_code: true,
      });
      const final = await tx.update(created.id, { empty: !staged.hasBranches, size: staged.size });
      await tx.recordMigration({
        repositoryId: final.id, originalUrl: address.safeUrl, service, isMirror: input.mirror, intervalMs,
        updatedAt: input.mirror ? now : null, nextSyncAt: input.mirror && intervalMs > 0 ? new Date(now.getTime() + intervalMs) : null, lastError: '',
      });
      await tx.publish({ kind: 'repo.created', repository: final, actorId: caller.userId });
      try {
        await staged.place(owner.login, input.repoName);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyExists('The repository with the same name already exists.', 'repo_exists');
        throw err;
      }
      return final;
    });
    await staged.settle().catch(() => undefined);
    return { repository, owner, permission: permissionOf({ repository, owner, caller, ...orgFactsOf(teams, owner.id, repository.id) }) };
  } catch (err) {
    await staged.discard().catch(() => undefined);
    throw err;
  }
}

/** Gitea's wording for a clone git could not make (its message already scrubbed of credentials). */
export function fetchRefusal(message: string): DomainError {
  if (/Authentication failed|could not read Username|401|403 Forbidden/i.test(message)) return invalid(`Authentication failed: ${message}.`, 'remote_auth_failed');
  return invalid(`Migration failed: ${message}.`, 'migration_failed');
}
