// Forks (Gitea's services/repository/fork.go and routers/api/v1/repo/fork.go): a copy of a
// repository's branches and tags under another owner that remembers its parent, and the
// list of a repository's forks. The parent's forks_count is a counter the database keeps
// with the fork rows (migration 20261126100000_repository_forks).
import { alreadyExists, DomainError, forbidden, invalid, type Caller } from '@anvil/kit';
import { canCreateOrgRepository, orgFactsOf, type MemberTeam } from './org-access.js';
import type { Owner } from './owner.js';
import { permissionOf } from './permission.js';
import { withPermissions, type RepositoryAccess, type RepositoryDeps } from './repositories.js';
import { validateRepositoryName } from './repository.js';
import type { RepositoryStore, RepositoryWithOwner } from './store.js';

export interface ForkInput {
  /** The organization to own the fork; the caller when empty. */
  organization: string;
  /** The fork's name; the parent's when empty. */
  name: string;
}

/** Who will own the fork, with Gitea's refusals for an organization the caller may not fill. */
async function forkOwner(store: RepositoryStore, organization: string, caller: Caller): Promise<{ owner: Owner; teams: MemberTeam[] }> {
  if (!organization) {
    const owner = await store.findOwnerById(caller.userId);
    if (!owner) throw new DomainError('unauthenticated', 'token is required');
    return { owner, teams: [] };
  }
  const org = await store.findOwnerByLogin(organization);
  if (!org || org.type !== 'organization') throw invalid(`org does not exist [id: 0, name: ${organization}]`, 'org_not_found');
  const teams = await store.memberTeamsOf(caller.userId, [org.id], []);
  if (!caller.isAdmin) {
    if (!teams.length) throw forbidden(`User is no Member of Organisation '${org.login}'`, 'not_org_member');
    if (!canCreateOrgRepository(teams, org.id)) throw forbidden(`User is not allowed to create repos in Organisation '${org.login}'`, 'org_repo_creation_denied');
  }
  return { owner: org, teams };
}

/**
 * Forks owner/name for the caller (or one of their organizations). The git data is cloned
 * into the staging area and reaches its name inside the transaction that inserts the row and
 * its repo.created event; the parent's counter moves in that same transaction.
 */
/** `base` is the repository forked, resolved for the caller (the route table asked for read access). */
export async function forkRepository(deps: RepositoryDeps, base: RepositoryAccess, input: ForkInput, caller: Caller): Promise<RepositoryAccess> {
  const { store, git, settings } = deps;
  if (caller.userId <= 0) throw new DomainError('unauthenticated', 'token is required');
  const { owner, teams } = await forkOwner(store, input.organization, caller);
  const forkName = input.name || base.repository.name;
  validateRepositoryName(forkName);

  // Gitea's CanForkRepoIn: the owner's repository limit, answered 409 by the fork route.
  const limit = owner.maxRepoCreation >= 0 ? owner.maxRepoCreation : settings.maxCreationLimit;
  if (limit >= 0 && !caller.isAdmin && !owner.isAdmin && (await store.countOwnedBy(owner.id)) >= limit) {
    throw alreadyExists(`user has reached maximum limit of repositories [limit: ${limit}]`, 'repo_limit_reached');
  }
  const existing = await store.findForkOf(base.repository.id, owner.id);
  if (existing) {
    throw alreadyExists(
      `repository is already forked by user [uname: ${owner.login}, repo path: ${base.owner.login}/${base.repository.name}, fork path: ${owner.login}/${existing.name}]`,
      'already_forked',
    );
  }
  if (await store.findByName(owner.login, forkName)) throw alreadyExists('The repository with the same name already exists.', 'repo_exists');

  const parent = base.repository;
  const staged = await git.stageFork(base.owner.login, parent.name, parent.default_branch);
  try {
    const size = await staged.size();
    const { repository, parentNow, permission } = await store.transaction(async (tx) => {
      const created = await tx.insert({
        owner_id: owner.id, owner_login: owner.login, name: forkName, description: parent.description, website: '',
        // Gitea: a fork of a private repository, or of a private owner's, is private.
        private: parent.private || base.owner.visibility === 'private' || settings.forcePrivate,
        archived: false, default_branch: parent.default_branch, object_format_name: parent.object_format_name, template: false,
        internal_tracker: settings.internalTracker, fork_id: parent.id, language: parent.language ?? '',
        has_issues: true, has_wiki: true, has_pull_requests: true, has_projects: true, has_releases: true, has_packages: true, has_actions: true, has_code: true,
      }, caller.userId);
      // What git facts the parent has are the fork's too until its first push (Gitea copies them).
      const final = await tx.update(created.id, { empty: parent.empty, size, branch_count: parent.branch_count, licenses: parent.licenses });
      // The parent as the insert left it: its forks_count counts this fork.
      const parentNow = (await tx.findById(parent.id)) ?? { repository: parent, owner: base.owner };
      // Gitea answers, and presents the fork in the fork webhook, with the caller's permission on it.
      const permission = owner.type === 'organization'
        ? permissionOf({ repository: final, owner, caller, ...orgFactsOf(teams, owner.id, final.id) })
        : 'owner';
      await tx.publish({ kind: 'repo.created', repository: final, actorId: caller.userId, actorLogin: caller.login });
      await tx.publish({
        kind: 'repo.forked', repository: final, parent: parentNow.repository, actorId: caller.userId, actorLogin: caller.login,
        permission, parentPermission: base.permission,
      });
      try {
        await staged.place(owner.login, forkName);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyExists('The repository with the same name already exists.', 'repo_exists');
        throw err;
      }
      return { repository: final, parentNow, permission };
    });
    await staged.settle().catch(() => undefined);
    return { repository, owner, permission, parent: parentNow };
  } catch (err) {
    await staged.discard().catch(() => undefined);
    throw err;
  }
}

/** GET /repos/{o}/{r}/forks: the forks the caller may see, oldest first, with their total. */
export async function listForks(store: RepositoryStore, base: RepositoryAccess, caller: Caller, offset: number, limit: number): Promise<{ items: RepositoryAccess[]; total: number }> {
  const { items, total } = await store.search({
    viewerId: caller.userId, viewerIsAdmin: caller.isAdmin, viewerRestricted: caller.restricted, q: '', owner_id: 0, exclusive: false,
    includeCollaborative: false, onlyCollaborative: false, visibility: caller.scopes.includes('public-only') ? 'public' : '',
    sort: 'id', order: 'asc', offset, limit, forkOf: base.repository.id,
  });
  const parent = { repository: base.repository, owner: base.owner };
  return { total, items: (await withPermissions(store, items, caller)).map((access) => ({ ...access, parent })) };
}

/**
 * Each fork's parent, loaded for a page of repositories in one statement (none when the page
 * has no fork). Gitea shows a fork's parent whoever asks (convert.innerToRepo).
 */
export async function withParents<T extends { repository: { fork_id?: number | null }; parent?: RepositoryWithOwner | null }>(store: RepositoryStore, items: T[]): Promise<T[]> {
  const wanted = [...new Set(items.filter((i) => i.parent === undefined && i.repository.fork_id).map((i) => i.repository.fork_id as number))];
  const parents = new Map((await store.findManyById(wanted)).map((p) => [p.repository.id, p]));
  return items.map((i) => (i.parent !== undefined ? i : { ...i, parent: i.repository.fork_id ? parents.get(i.repository.fork_id) ?? null : null }));
}

/** Where a pull's head may live: a fork of the base, or the base's parent (resolveForkPair's network). */
export function isInNetworkOf(base: RepositoryAccess['repository'], candidate: RepositoryAccess['repository']): boolean {
  return candidate.id !== base.id && (candidate.fork_id === base.id || (Boolean(base.fork_id) && candidate.id === base.fork_id));
}

/**
 * The head repositories of pulls into `base` (resolved for the caller), by ids or by owner
 * and name, for presenting those pulls. Gitea shows a pull's head repository to whoever may
 * read the pull (convert.ToAPIPullRequest), with that caller's own permission on it: a
 * private fork they may not see shows with permission "none". Only repositories of the
 * base's network are answered, so this reveals nothing a pull into the base does not name.
 */
export async function pullHeadRepositories(store: RepositoryStore, base: RepositoryAccess, heads: { ids: number[] } | { owner: string; name: string }, caller: Caller): Promise<RepositoryAccess[]> {
  const found = 'ids' in heads
    ? await store.findManyById([...new Set(heads.ids)])
    : [await store.findByName(heads.owner, heads.name)].filter((r): r is RepositoryWithOwner => Boolean(r));
  const inNetwork = found.filter((r) => isInNetworkOf(base.repository, r.repository));
  return withParents(store, await withPermissions(store, inNetwork, caller));
}
