// What the issue routes need to know about access that only this service holds: who can be
// assigned in a repository (Gitea's CanBeAssigned / GetRepoAssignees: write access), and
// which repositories a caller's issue search covers (Gitea's SearchIssues repository
// options: everything the caller may see, optionally of one owner or one of its teams).
import { invalid, type Caller } from '@anvil/kit';
import type { Owner } from './owner.js';
import { resolveRepository } from './repositories.js';
import type { RepositoryStore, SearchFilter, TeamScope, VisibleRepository } from './store.js';

/** GET /repos/{o}/{r}/assignees: the repository must be visible to the caller. */
export async function listAssignees(store: RepositoryStore, ownerLogin: string, name: string, caller: Caller): Promise<Owner[]> {
  const access = await resolveRepository(store, ownerLogin, name, caller);
  return store.assignableUsers(access.repository.id);
}

/**
 * The repositories an issue search covers. Gitea answers 400 for an unknown owner or team,
 * and for a team without its organization.
 */
export async function visibleRepositories(store: RepositoryStore, caller: Caller, ownerLogin: string, teamName: string): Promise<VisibleRepository[]> {
  const owner = ownerLogin.trim() ? await store.findOwnerByLogin(ownerLogin.trim()) : undefined;
  if (ownerLogin.trim() && !owner) throw invalid(`user does not exist [uid: 0, name: ${ownerLogin.trim()}]`, 'search_owner_not_found');
  let team: TeamScope | undefined;
  if (teamName.trim()) {
    if (!owner) throw invalid('Owner organisation is required for filtering on team', 'search_team_needs_owner');
    team = owner.type === 'organization' ? await store.findTeamByName(owner.id, teamName.trim()) : undefined;
    if (!team) throw invalid(`team does not exist [org_id ${owner.id}, team_id 0, name: ${teamName.trim()}]`, 'search_team_not_found');
  }
  const filter: SearchFilter = {
    viewerId: Math.max(caller.userId, 0), viewerIsAdmin: caller.isAdmin, viewerRestricted: caller.restricted, q: '',
    owner_id: owner?.id ?? 0, exclusive: true, includeCollaborative: false, onlyCollaborative: false,
    // A public-only token searches public repositories only.
    visibility: caller.scopes.includes('public-only') ? 'public' : '',
    sort: 'id', order: 'asc', offset: 0, limit: 0,
  };
  return store.visibleRepositories(filter, team);
}
