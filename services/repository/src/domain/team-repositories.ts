// A team's repositories (Gitea's routers/api/v1/org/team.go GetTeamRepos, GetTeamRepo,
// AddTeamRepository, RemoveTeamRepository). Identity decided that the caller may see the
// team before the gateway came here; these rules cover the repository side.
import { forbidden, notFound, type Caller } from '@anvil/kit';
import { atLeast } from './permission.js';
import { accessOf, withPermissions, type RepositoryAccess } from './repositories.js';
import type { RepositoryStore, RepositoryWithOwner, TeamScope } from './store.js';

const repoNotFound = () => notFound('The target couldn\'t be found.', 'repo_not_found');

/** Gitea's getRepositoryByParams: the repository of that name in the team's organization. */
async function orgRepository(store: RepositoryStore, team: TeamScope, name: string): Promise<RepositoryWithOwner> {
  const org = await store.findOwnerById(team.orgId);
  const found = org ? await store.findByName(org.login, name) : undefined;
  if (!found) throw repoNotFound();
  return found;
}

export async function listTeamRepositories(store: RepositoryStore, team: TeamScope, caller: Caller, offset: number, limit: number): Promise<{ items: RepositoryAccess[]; total: number }> {
  const org = await store.findOwnerById(team.orgId);
  if (!org) return { items: [], total: 0 };
  const { items, total } = await store.listTeamRepositories(team, offset, limit);
  return { total, items: await withPermissions(store, items.map((repository) => ({ repository, owner: org })), caller) };
}

export async function getTeamRepository(store: RepositoryStore, team: TeamScope, name: string, caller: Caller): Promise<RepositoryAccess> {
  const found = await orgRepository(store, team, name);
  if (!(await store.teamHasRepository(team, found.repository.id))) throw repoNotFound();
  return accessOf(store, found, caller);
}

/** Gitea: only a site admin or someone with admin access to the repository changes its teams. */
async function administeredRepository(store: RepositoryStore, team: TeamScope, name: string, caller: Caller): Promise<RepositoryWithOwner> {
  const found = await orgRepository(store, team, name);
  if (!caller.isAdmin) {
    const { permission } = await accessOf(store, found, caller);
    if (!atLeast(permission, 'admin')) throw forbidden('Must have admin-level access to the repository', 'repo_admin_required');
  }
  return found;
}

export async function addTeamRepository(store: RepositoryStore, team: TeamScope, name: string, caller: Caller): Promise<void> {
  const found = await administeredRepository(store, team, name, caller);
  await store.transaction((tx) => tx.addTeamRepository(team, found.repository.id));
}

/** A team that includes all repositories keeps them all (Gitea ignores the removal). */
export async function removeTeamRepository(store: RepositoryStore, team: TeamScope, name: string, caller: Caller): Promise<void> {
  const found = await administeredRepository(store, team, name, caller);
  if (team.includesAllRepositories) return;
  await store.transaction((tx) => tx.removeTeamRepository(team, found.repository.id));
}
