// Local adoption (Gitea's services/repository/adopt.go): bare repositories that sit in the
// storage root without a repository row, e.g. copied there by an administrator or left by
// a restore. A site admin lists them, adopts one (the row is created from what git holds,
// and repo.created is published as creation does) or deletes its directory.
import { alreadyExists, forbidden, notFound, type Caller } from '@anvil/kit';
import { globToRegExp } from './glob.js';
import type { Owner } from './owner.js';
import { permissionOf } from './permission.js';
import type { RepositoryAccess } from './repositories.js';
import { validateRepositoryName } from './repository.js';
import type { RepositoryStore } from './store.js';
import type { InternalTracker } from './internal-tracker.js';

/** The storage root (src/git/unadopted.ts); names are lower-case as storage writes them. */
export interface UnadoptedGit {
  /** Every `<owner>/<name>.git` real directory (no symlinks), ordered by owner then name. */
  listDirectories(): Promise<Array<{ owner: string; name: string }>>;
  /** A real directory at owner/name (no symlink on the way). */
  isDirectory(owner: string, name: string): Promise<boolean>;
  /** isDirectory, and it holds a bare repository (HEAD, objects, refs). */
  isRepository(owner: string, name: string): Promise<boolean>;
  /** The branch HEAD names; undefined when HEAD is detached or unreadable. */
  headBranch(owner: string, name: string): Promise<string | undefined>;
  branches(owner: string, name: string): Promise<string[]>;
  setDefaultBranch(owner: string, name: string, branch: string): Promise<void>;
  /** "sha1" or "sha256". */
  objectFormat(owner: string, name: string): Promise<string>;
  size(owner: string, name: string): Promise<number>;
  remove(owner: string, name: string): Promise<void>;
}

/** Batched reads for the listing (src/store/unadopted.ts). */
export interface UnadoptedRows {
  /** Owners whose login is one of these (case-insensitive). */
  ownersByLogins(logins: string[]): Promise<Owner[]>;
  /** Which pairs have a repository row, as `${ownerId}/${lowerName}` keys. */
  existingRepositories(pairs: Array<{ ownerId: number; lowerName: string }>): Promise<Set<string>>;
}

export interface UnadoptedDeps {
  store: RepositoryStore;
  rows: UnadoptedRows;
  git: UnadoptedGit;
  settings: { forcePrivate: boolean; defaultBranch: string; internalTracker: InternalTracker };
}

const targetNotFound = () => notFound('The target couldn\'t be found.', 'unadopted_not_found');

function requireSiteAdmin(caller: Caller): void {
  if (!caller.isAdmin) throw forbidden('user should be the site admin', 'site_admin_required');
}

/** Gitea's pattern: `owner-glob` or `owner-glob/repo-glob`, `*` matching anything; case is ignored. */
function matcherOf(pattern: string): (owner: string, name: string) => boolean {
  if (!pattern) return () => true;
  const slash = pattern.indexOf('/');
  const owner = globToRegExp((slash < 0 ? pattern : pattern.slice(0, slash)).toLowerCase(), '');
  const repo = slash < 0 ? /^/ : globToRegExp(pattern.slice(slash + 1).toLowerCase(), '');
  return (o, n) => owner.test(o) && repo.test(n);
}

function isUsableName(name: string): boolean {
  try {
    validateRepositoryName(name);
    return true;
  } catch {
    return false;
  }
}

/** "owner/name" of each unadopted repository whose owner exists, in path order, one page of them. */
export async function listUnadopted(deps: UnadoptedDeps, pattern: string, offset: number, limit: number, caller: Caller): Promise<{ names: string[]; total: number }> {
  requireSiteAdmin(caller);
  const matches = matcherOf(pattern);
  const candidates = (await deps.git.listDirectories()).filter((d) => isUsableName(d.name) && matches(d.owner, d.name));
  const owners = new Map((await deps.rows.ownersByLogins([...new Set(candidates.map((d) => d.owner))])).map((o) => [o.login.toLowerCase(), o]));
  // Directories of owners repository does not know are skipped, as Gitea skips missing users.
  const owned = candidates.flatMap((d) => {
    const owner = owners.get(d.owner);
    return owner ? [{ ...d, ownerId: owner.id }] : [];
  });
  const existing = new Set<string>();
  for (let i = 0; i < owned.length; i += 1000) {
    const chunk = owned.slice(i, i + 1000).map((d) => ({ ownerId: d.ownerId, lowerName: d.name }));
    for (const key of await deps.rows.existingRepositories(chunk)) existing.add(key);
  }
  const unadopted = owned.filter((d) => !existing.has(`${d.ownerId}/${d.name}`)).map((d) => `${d.owner}/${d.name}`);
  return { names: unadopted.slice(offset, offset + limit), total: unadopted.length };
}

/** The owner and a checked name of an unadopted repository: 404, 422 or 409 otherwise. */
async function unadoptedTarget(deps: UnadoptedDeps, ownerLogin: string, name: string, caller: Caller): Promise<Owner> {
  requireSiteAdmin(caller);
  const owner = await deps.store.findOwnerByLogin(ownerLogin);
  if (!owner) throw targetNotFound();
  validateRepositoryName(name);
  if (await deps.store.findByName(owner.login, name)) throw alreadyExists('The repository with the same name already exists.', 'repo_exists');
  return owner;
}

/**
 * The default branch of adopted git data: the branch HEAD names if it exists, else as
 * Gitea's adoptRepository picks (the configured default, master, main, the first branch);
 * no branch at all means an empty repository on the configured default.
 */
export function defaultBranchOf(head: string | undefined, branches: string[], configured: string): { branch: string; empty: boolean } {
  if (head && branches.includes(head)) return { branch: head, empty: false };
  for (const candidate of [configured, 'master', 'main']) if (branches.includes(candidate)) return { branch: candidate, empty: false };
  if (branches.length) return { branch: branches[0], empty: false };
  return { branch: configured, empty: true };
}

export async function adoptRepository(deps: UnadoptedDeps, ownerLogin: string, name: string, caller: Caller): Promise<RepositoryAccess> {
  const owner = await unadoptedTarget(deps, ownerLogin, name, caller);
  const { git } = deps;
  if (!(await git.isRepository(owner.login, name))) throw targetNotFound();
  const head = await git.headBranch(owner.login, name);
  const { branch, empty } = defaultBranchOf(head, await git.branches(owner.login, name), deps.settings.defaultBranch);
  if (branch !== head) await git.setDefaultBranch(owner.login, name, branch);
  const size = await git.size(owner.login, name);
  const objectFormat = await git.objectFormat(owner.login, name);
  // A racing adopt (or create) of the same name loses on the unique index: 409, and the
  // git data is left alone, since it is not this call's to remove.
  const repository = await deps.store.transaction(async (tx) => {
    const created = await tx.insert({
      owner_id: owner.id, owner_login: owner.login, name, description: '', website: '',
      // Gitea's API adopts as private: the data's owner decides later whether to publish it.
      private: true, archived: false, default_branch: branch, object_format_name: objectFormat, template: false,
      internal_tracker: deps.settings.internalTracker,
      has_issues: true, has_wiki: true, has_pull_requests: true, has_projects: true, has_releases: true, has_packages: true, has_actions: true, has_code: true,
    }, caller.userId);
    const final = await tx.update(created.id, { empty: empty, size });
    await tx.publish({ kind: 'repo.created', repository: final, actorId: caller.userId, actorLogin: caller.login });
    return final;
  });
  return { repository, owner, permission: permissionOf({ repository, owner, caller }) };
}

export async function deleteUnadopted(deps: UnadoptedDeps, ownerLogin: string, name: string, caller: Caller): Promise<void> {
  const owner = await unadoptedTarget(deps, ownerLogin, name, caller);
  if (!(await deps.git.isDirectory(owner.login, name))) throw targetNotFound();
  await deps.git.remove(owner.login, name);
}
