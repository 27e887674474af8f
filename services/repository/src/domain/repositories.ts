// Repository use cases: create, resolve with the caller's permission, edit, delete, search.
// Git storage is reached through the GitStorage port so these rules stay testable.
import { DomainError, alreadyExists, forbidden, invalid, notFound, type Caller } from '@anvil/kit';
import { canCreateOrgRepository, orgFactsOf, reachesPullRequests, type MemberTeam } from './org-access.js';
import type { Owner } from './owner.js';
import { isPublicOnly, permissionOf, type AccessMode } from './permission.js';
import { internalTrackerOf, type InternalTracker } from './internal-tracker.js';
import { editPullRequestSettings, type PullRequestSettingsEdit } from './pull-request-settings.js';
import { checkTemplateNames, initialFiles, type TemplateCatalog } from './repo-templates.js';
import { UNIT_FLAGS, validateDescription, validateNewRepositoryName, validateRepositoryName, validateWebsite, type Repository, type UnitFlag } from './repository.js';
import type { RepositoryPatch, RepositoryStore, RepositoryWithOwner, SearchFilter } from './store.js';

/** The git side of repository lifecycle (src/git/storage.ts behind an adapter). */
export interface GitStorage {
  /** A new repository set up away from its name; it reaches the name only through place(). */
  stage(defaultBranch: string, objectFormat: 'sha1' | 'sha256'): Promise<StagedRepository>;
  /** A copy of owner/name's branches and tags set up away from its name (a fork), as stage() does. */
  stageFork(fromOwner: string, fromName: string, defaultBranch: string): Promise<StagedRepository>;
  move(fromOwner: string, fromName: string, toOwner: string, toName: string): Promise<void>;
  remove(owner: string, name: string): Promise<void>;
  setDefaultBranch(owner: string, name: string, branch: string): Promise<void>;
  branchExists(owner: string, name: string, branch: string): Promise<boolean>;
  size(owner: string, name: string): Promise<number>;
}

/** A repository being created: see storage.ts (CREATING_MARKER) for why it is staged. */
export interface StagedRepository {
  /** The first commit of the empty repository: path → content. */
  commitInitialFiles(branch: string, files: Record<string, string>, author: { name: string; email: string }): Promise<void>;
  size(): Promise<number>;
  /**
   * Moves it to owner/name, replacing the leftover of a creation that crashed; throws with
   * code EEXIST when another repository directory is there. Call between the row's insert and commit.
   */
  place(owner: string, name: string): Promise<void>;
  /** After the row committed. */
  settle(): Promise<void>;
  /** After a failure: removes what this creation made. */
  discard(): Promise<void>;
}

export interface RepositorySettings {
  forcePrivate: boolean;
  /** -1 = unlimited. */
  maxCreationLimit: number;
  defaultBranch: string;
  /** The issue tracker's settings a new repository starts with ([service] DEFAULT_*). */
  internalTracker: InternalTracker;
}

export interface RepositoryAccess {
  repository: Repository;
  owner: Owner;
  permission: AccessMode;
  /** A fork's parent, when loaded (forks.ts withParents); null when it is no fork. */
  parent?: RepositoryWithOwner | null;
  /** Collaborator or in a team reaching its pull requests (ResolveRepository only; see the .proto). */
  collaborator?: boolean;
}

export interface RepositoryDeps {
  store: RepositoryStore;
  git: GitStorage;
  settings: RepositorySettings;
  /** Gitignore and license templates for auto_init; without them only the readme is known. */
  templates?: TemplateCatalog;
}

const NO_TEMPLATES: TemplateCatalog = { gitignoreNames: () => [], gitignore: () => undefined, licenseNames: () => [], license: () => undefined };

const repoNotFound = () => notFound('The target couldn\'t be found.', 'repo_not_found');

/** A user's teams of the repository's owner, when that owner is an organization. */
async function teamsFor(store: RepositoryStore, found: RepositoryWithOwner, userId: number): Promise<MemberTeam[]> {
  return found.owner.type === 'organization' && userId > 0 ? store.memberTeamsOf(userId, [found.owner.id], [found.repository.id]) : [];
}

export async function accessOf(store: RepositoryStore, found: RepositoryWithOwner, caller: Caller): Promise<RepositoryAccess> {
  const collaboration = caller.userId > 0 && caller.userId !== found.repository.owner_id
    ? await store.collaborationOf(found.repository.id, caller.userId)
    : undefined;
  const teams = await teamsFor(store, found, caller.userId);
  const permission = permissionOf({ repository: found.repository, owner: found.owner, caller, collaboration, ...orgFactsOf(teams, found.owner.id, found.repository.id) });
  return { ...found, permission };
}

/** `user`'s permission on a repository (not the caller's): collaborator grant, teams, ownership. */
export async function permissionOfUser(store: RepositoryStore, found: RepositoryWithOwner, user: Owner): Promise<AccessMode> {
  const collaboration = await store.collaborationOf(found.repository.id, user.id);
  const teams = await teamsFor(store, found, user.id);
  return permissionOf({
    repository: found.repository, owner: found.owner,
    caller: { userId: user.id, isAdmin: user.isAdmin, restricted: user.restricted }, collaboration,
    ...orgFactsOf(teams, found.owner.id, found.repository.id),
  });
}

/** The repository and the caller's permission; not_found when the caller may not see it. */
export async function resolveRepository(store: RepositoryStore, ownerLogin: string, name: string, caller: Caller): Promise<RepositoryAccess> {
  const found = await store.findByNameForViewer(ownerLogin, name, Math.max(caller.userId, 0));
  if (!found) throw repoNotFound();
  const facts = {
    repository: found.repository, owner: found.owner, caller, collaboration: found.collaboration,
    ...orgFactsOf(found.teams, found.owner.id, found.repository.id),
  };
  const permission = permissionOf(facts);
  if (permission === 'none') {
    // Gitea tells a public-only token's holder why their own private repository is refused
    // (its reqToken: 403); to anyone else the repository does not exist.
    const withoutLimit = { ...caller, scopes: caller.scopes.filter((s) => s !== 'public-only') };
    if (isPublicOnly(caller) && permissionOf({ ...facts, caller: withoutLimit }) !== 'none') {
      throw forbidden('token scope is limited to public repos', 'token_public_only');
    }
    throw repoNotFound();
  }
  const collaborator = Boolean(found.collaboration) || reachesPullRequests(found.teams, found.owner.id, found.repository.id);
  return { repository: found.repository, owner: found.owner, permission, collaborator };
}

export async function getRepositoryById(store: RepositoryStore, id: number, caller: Caller): Promise<RepositoryAccess> {
  const found = await store.findById(id);
  if (!found) throw repoNotFound();
  const access = await accessOf(store, found, caller);
  if (access.permission === 'none') throw repoNotFound();
  return access;
}

/**
 * The caller's permission on a repository as the gateway resolved it for the route, which
 * checked the permission the route needs before calling (signed in the call's metadata).
 */
export interface GatewayResolution {
  repositoryId: number;
  permission: AccessMode;
}

/**
 * The repository a request names and the caller's permission there. With the gateway's
 * resolution the permission is taken as it stands (never derived again) and only the
 * repository's own row is read (the one prepared statement resolving uses), for the
 * freshest facts the rules need (archived, default branch, read inside a write's turn);
 * without one (another service calling) it is resolved here, and a caller who may not see
 * the repository gets not_found. Domain functions take the result and check only what is
 * more than a permission level (branch protection, archived, mirrors).
 */
export async function repositoryFor(store: RepositoryStore, ownerLogin: string, name: string, caller: Caller, resolved?: GatewayResolution): Promise<RepositoryAccess> {
  if (resolved) {
    const found = await store.findByNameForViewer(ownerLogin, name, Math.max(caller.userId, 0));
    if (found?.repository.id === resolved.repositoryId) return { repository: found.repository, owner: found.owner, permission: resolved.permission };
  }
  return resolveRepository(store, ownerLogin, name, caller);
}

export interface CreateRepositoryInput {
  owner_id: number;
  name: string;
  description: string;
  private: boolean;
  default_branch: string;
  auto_init: boolean;
  readme: string;
  template: boolean;
  object_format_name: string;
  /** With autoInit: comma-separated gitignore template names and an SPDX license id. */
  gitignores?: string;
  license?: string;
}

export async function createRepository(deps: RepositoryDeps, input: CreateRepositoryInput, caller: Caller): Promise<RepositoryAccess> {
  const { store, git, settings } = deps;
  if (caller.userId <= 0) throw new DomainError('unauthenticated', 'token is required');
  const owner = await store.findOwnerById(input.owner_id);
  if (!owner) throw notFound(`owner with id ${input.owner_id} does not exist`, 'owner_not_found');
  let teams: MemberTeam[] = [];
  if (owner.type === 'organization') {
    // Gitea's CreateOrgRepo: org owners and members of a team allowed to create repositories.
    teams = await store.memberTeamsOf(caller.userId, [owner.id], []);
    if (!caller.isAdmin && !canCreateOrgRepository(teams, owner.id)) {
      if (!teams.length && owner.visibility === 'private') throw notFound(`owner with id ${input.owner_id} does not exist`, 'owner_not_found');
      throw forbidden('Given user is not allowed to create repository in organization.', 'org_repo_creation_denied');
    }
  } else if (caller.userId !== input.owner_id && !caller.isAdmin) {
    throw forbidden('only the owner may create repositories for this user');
  }
  validateRepositoryName(input.name);
  validateDescription(input.description);
  const branch = input.default_branch || settings.defaultBranch;
  if (!isBranchName(branch)) throw invalid(`invalid default branch name: ${branch}`, 'invalid_branch_name');
  const objectFormat = input.object_format_name || 'sha1';
  if (objectFormat !== 'sha1' && objectFormat !== 'sha256') throw invalid(`unsupported object format: ${objectFormat}`, 'invalid_object_format');
  // As in Gitea, the templates matter (and are checked) only when the repository is initialised.
  const templates = deps.templates ?? NO_TEMPLATES;
  const fileOptions = { readme: input.readme, gitignores: input.gitignores ?? '', license: input.license ?? '' };
  if (input.auto_init) checkTemplateNames(templates, fileOptions);

  // Gitea's CanCreateRepo: the user's own limit when set (>= 0), else the site's.
  const limit = owner.maxRepoCreation >= 0 ? owner.maxRepoCreation : settings.maxCreationLimit;
  if (limit >= 0 && !caller.isAdmin && !owner.isAdmin && (await store.countOwnedBy(owner.id)) >= limit) {
    throw forbidden(`user has reached maximum limit of repositories [limit: ${limit}]`, 'repo_limit_reached');
  }
  if (await store.findByName(owner.login, input.name)) throw alreadyExists('The repository with the same name already exists.', 'repo_exists');

  // Git data is prepared in a staging area and moved to its name inside the transaction
  // that inserts the row, after the insert (whose unique index holds a concurrent create of
  // the name) and before the commit. A crash anywhere leaves nothing that blocks the name.
  const staged = await git.stage(branch, objectFormat);
  try {
    if (input.auto_init) {
      const author = { name: caller.login || owner.login, email: owner.email || `${owner.login.toLowerCase()}@noreply.anvil` };
      const files = initialFiles(templates, fileOptions, {
        name: input.name, description: input.description, owner: owner.login, email: author.email, year: String(new Date().getFullYear()),
      });
      await staged.commitInitialFiles(branch, files, author);
    }
    const size = input.auto_init ? await staged.size() : 0;
    const repository = await store.transaction(async (tx) => {
      const created = await tx.insert({
        owner_id: owner.id, owner_login: owner.login, name: input.name, description: input.description, website: '',
        private: input.private || settings.forcePrivate, archived: false, default_branch: branch,
        object_format_name: objectFormat, template: input.template, internal_tracker: settings.internalTracker,
        has_issues: true, has_wiki: true, has_pull_requests: true, has_projects: true, has_releases: true, has_packages: true, has_actions: true, has_code: true,
      }, caller.userId);
      const final = input.auto_init ? await tx.update(created.id, { empty: false, size }) : created;
      await tx.publish({ kind: 'repo.created', repository: final, actorId: caller.userId, actorLogin: caller.login });
      try {
        await staged.place(owner.login, input.name);
      } catch (err) {
        // Files of a repository without a row (an admin may adopt them): Gitea's 409.
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

export interface EditRepositoryInput extends Partial<Record<UnitFlag, boolean>> {
  name?: string;
  description?: string;
  website?: string;
  private?: boolean;
  archived?: boolean;
  default_branch?: string;
  template?: boolean;
  pull_request_settings?: PullRequestSettingsEdit;
  /** Replaces the built-in tracker's settings while issues are on (Gitea's EditRepoOption.internal_tracker). */
  internal_tracker?: InternalTracker;
}

/** PATCH /repos/{owner}/{repo}, for the repository's admins (the route table's `repoAccess: 'admin'`). */
export async function editRepository(deps: RepositoryDeps, access: RepositoryAccess, input: EditRepositoryInput, caller: Caller): Promise<RepositoryAccess> {
  const { store, git, settings } = deps;
  const repo = access.repository;
  const patch: RepositoryPatch = {};
  if (input.name !== undefined && input.name !== repo.name) {
    validateNewRepositoryName(input.name);
    const clash = await store.findByName(access.owner.login, input.name);
    if (clash && clash.repository.id !== repo.id) throw alreadyExists(`repo name is already taken [name: ${input.name}]`, 'repo_exists');
    patch.name = input.name;
  }
  if (input.description !== undefined) {
    validateDescription(input.description);
    patch.description = input.description;
  }
  if (input.website !== undefined) {
    validateWebsite(input.website);
    patch.website = input.website;
  }
  if (input.private !== undefined && input.private !== repo.private) {
    // Gitea: with FORCE_PRIVATE anyone may hide a repository, only site admins may publish one.
    if (settings.forcePrivate && !input.private && !caller.isAdmin) throw invalid('cannot change private repository to public', 'force_private');
    patch.private = input.private;
  }
  if (input.template !== undefined) patch.template = input.template;
  if (input.archived !== undefined && input.archived !== repo.archived) {
    patch.archived = input.archived;
    patch.archived_at = input.archived ? new Date() : null;
  }
  for (const flag of UNIT_FLAGS) if (input[flag] !== undefined) patch[flag] = input[flag];
  // Gitea's updateRepoUnits applies the pull request settings while the unit is on or being
  // turned on; an edit that leaves pull requests off does not touch them.
  const pullRequestsOn = input.has_pull_requests ?? repo.has_pull_requests;
  if (pullRequestsOn && input.pull_request_settings && Object.keys(input.pull_request_settings).length) {
    patch.pull_request_settings = editPullRequestSettings(repo.pull_request_settings, input.pull_request_settings);
  }
  // Gitea's updateRepoUnits: the built-in tracker's settings are replaced while issues stay on.
  if (input.internal_tracker && (input.has_issues ?? repo.has_issues)) {
    const next = internalTrackerOf(input.internal_tracker);
    if (JSON.stringify(next) !== JSON.stringify(repo.internal_tracker)) patch.internal_tracker = next;
  }
  if (input.default_branch !== undefined && input.default_branch !== repo.default_branch) {
    if (!isBranchName(input.default_branch)) throw invalid(`invalid default branch name: ${input.default_branch}`, 'invalid_branch_name');
    // An empty repository may name any branch (its first push creates it); otherwise the
    // branch must exist, as in Gitea.
    if (!repo.empty && !(await git.branchExists(access.owner.login, repo.name, input.default_branch))) {
      throw notFound(`branch ${input.default_branch} does not exist`, 'branch_not_found');
    }
    patch.default_branch = input.default_branch;
  }
  if (Object.keys(patch).length === 0) return access;

  if (patch.name) await git.move(access.owner.login, repo.name, access.owner.login, patch.name);
  try {
    const updated = await store.transaction(async (tx) => {
      const row = await tx.update(repo.id, patch);
      await tx.publish({ kind: 'repo.updated', repository: row, actorId: caller.userId, actorLogin: caller.login });
      return row;
    });
    if (patch.default_branch) await git.setDefaultBranch(access.owner.login, updated.name, patch.default_branch);
    return { ...access, repository: updated };
  } catch (err) {
    if (patch.name) await git.move(access.owner.login, patch.name, access.owner.login, repo.name).catch(() => undefined);
    throw err;
  }
}

/** DELETE /repos/{owner}/{repo}, for its owner and site admins (the route table's `repoAccess: 'owner'`). */
export async function deleteRepository(deps: RepositoryDeps, access: RepositoryAccess, caller: Caller): Promise<void> {
  await deps.store.transaction(async (tx) => {
    await tx.remove(access.repository.id);
    await tx.publish({ kind: 'repo.deleted', repository: access.repository, actorId: caller.userId, actorLogin: caller.login });
  });
  // The row is gone first: a failure here leaves unreachable data, never a row without data.
  await deps.git.remove(access.owner.login, access.repository.name);
}

export async function searchRepositories(store: RepositoryStore, filter: SearchFilter, caller: Caller): Promise<{ items: RepositoryAccess[]; total: number }> {
  if (asksOnlyForIds(filter)) return resolveByIds(store, filter, caller);
  const { items, total } = await store.search(filter);
  return { total, items: await withPermissions(store, items, caller) };
}

/** Up to this many ids are resolved one row each (the gateway asks for at most 1,000 at once); more are searched. */
const RESOLVED_IDS_MAX = 1000;

/**
 * A search for nothing but some repositories by id, in id order: what lists naming
 * repositories by id ask (a user's notifications, tracked times, stopwatches, stars, watches).
 */
function asksOnlyForIds(filter: SearchFilter): filter is SearchFilter & { ids: number[] } {
  return filter.ids !== undefined && filter.ids.length <= RESOLVED_IDS_MAX && filter.sort === 'id' && !filter.q && !(filter.owner_id > 0)
    && !filter.onlyCollaborative && filter.visibility === '' && filter.archived === undefined && filter.template === undefined
    && filter.fork === undefined && filter.forkOf === undefined;
}

/**
 * Such a search answered as resolving each repository would (the rule of a GET of it, not
 * the search's SQL twin of that rule), from one statement: six fewer round trips through
 * Prisma, the bulk of what a notification list cost.
 */
async function resolveByIds(store: RepositoryStore, filter: SearchFilter & { ids: number[] }, caller: Caller): Promise<{ items: RepositoryAccess[]; total: number }> {
  const found = await store.findManyByIdForViewer(filter.ids, Math.max(caller.userId, 0));
  const visible = found.flatMap(({ repository, owner, collaboration, teams }) => {
    const permission = permissionOf({ repository, owner, caller, collaboration, ...orgFactsOf(teams, owner.id, repository.id) });
    return permission === 'none' ? [] : [{ repository, owner, permission }];
  });
  const direction = filter.order === 'desc' ? -1 : 1;
  visible.sort((a, b) => direction * (a.repository.id - b.repository.id));
  return { total: visible.length, items: visible.slice(filter.offset, filter.offset + filter.limit) };
}

/** The caller's permission on each of a page of repositories, in two queries (no N+1). */
export async function withPermissions(store: RepositoryStore, items: RepositoryWithOwner[], caller: Caller): Promise<RepositoryAccess[]> {
  const ids = items.map((i) => i.repository.id);
  const grants = caller.userId > 0 ? await store.collaborationsOf(ids, caller.userId) : new Map();
  // The caller's teams across every organization on the page at once.
  const orgIds = [...new Set(items.filter((i) => i.owner.type === 'organization').map((i) => i.owner.id))];
  const teams = caller.userId > 0 && orgIds.length ? await store.memberTeamsOf(caller.userId, orgIds, ids) : [];
  return items.map((found) => ({
    ...found,
    permission: permissionOf({
      repository: found.repository, owner: found.owner, caller, collaboration: grants.get(found.repository.id),
      ...orgFactsOf(teams, found.owner.id, found.repository.id),
    }),
  }));
}

function isBranchName(name: string): boolean {
  return /^[A-Za-z0-9_][A-Za-z0-9_./-]*$/.test(name) && !name.includes('..') && !name.endsWith('/') && !name.endsWith('.lock') && !name.includes('//') && name.length <= 255;
}
