// What a user's team memberships grant on an organization's repositories (Gitea's
// GetUserRepoPermission for org-owned repositories). The teams come from the read model
// of identity's team events; these plain functions turn them into permission facts.
import { toAccessMode } from '@anvil/kit';
import { atLeast, type AccessMode } from './permission.js';

/** A team the user belongs to, as the read model knows it. */
export interface MemberTeam {
  teamId: number;
  orgId: number;
  /** The team's name: branch protection whitelists name teams. */
  name: string;
  /** "none", "read", "write", "admin" or "owner". */
  permission: string;
  /** Access per unit ("repo.code" -> "read"); used when the team has no overall permission. */
  unitsMap: Record<string, string>;
  includesAllRepositories: boolean;
  canCreateOrgRepo: boolean;
  /** The repositories (of those asked about) given to the team explicitly. */
  repositoryIds: number[];
}

export interface OrgFacts {
  isOrgMember: boolean;
  isOrgOwner: boolean;
  teamModes: AccessMode[];
}


/**
 * The access a team gives on a repository it has. Gitea gives members of a team with admin
 * access owner rights on the team's repositories; a unit-based team (permission none) gives
 * the strongest of its units.
 */
export function teamMode(team: Pick<MemberTeam, 'permission' | 'unitsMap'>): AccessMode {
  let mode = toAccessMode(team.permission);
  if (mode === 'none') {
    for (const unit of Object.values(team.unitsMap ?? {})) if (atLeast(toAccessMode(unit), mode)) mode = toAccessMode(unit);
  }
  return atLeast(mode, 'admin') ? 'owner' : mode;
}

/** A team's access to one unit (`repo.pulls`): its overall permission, else that unit's own. */
function unitMode(team: Pick<MemberTeam, 'permission' | 'unitsMap'>, unit: string): AccessMode {
  const overall = toAccessMode(team.permission);
  return overall !== 'none' ? overall : toAccessMode(team.unitsMap?.[unit] ?? 'none');
}

export function hasRepository(team: Pick<MemberTeam, 'includesAllRepositories' | 'repositoryIds'>, repositoryId: number): boolean {
  return team.includesAllRepositories || team.repositoryIds.includes(repositoryId);
}

/**
 * Gitea's GetTeamsWithAccessToAnyRepoUnit(read, pulls) as CanDoerChangeReviewRequests asks
 * it: one of the user's teams of `orgId` has the repository and reads its pull requests.
 */
export function reachesPullRequests(teams: MemberTeam[], orgId: number, repositoryId: number): boolean {
  return teams.some((t) => t.orgId === orgId && hasRepository(t, repositoryId) && atLeast(unitMode(t, 'repo.pulls'), 'read'));
}

/** Org owners are the members of a team with owner permission (the Owners team). */
export function isOrgOwner(teams: MemberTeam[], orgId: number): boolean {
  return teams.some((t) => t.orgId === orgId && t.permission === 'owner');
}

/** Gitea's CanCreateOrgRepo: an owner, or a member of a team allowed to create repositories. */
export function canCreateOrgRepository(teams: MemberTeam[], orgId: number): boolean {
  return teams.some((t) => t.orgId === orgId && (t.permission === 'owner' || t.canCreateOrgRepo));
}

/** The permission facts for one repository of `orgId` from the user's teams. */
export function orgFactsOf(teams: MemberTeam[], orgId: number, repositoryId: number): OrgFacts {
  const inOrg = teams.filter((t) => t.orgId === orgId);
  return {
    isOrgMember: inOrg.length > 0,
    isOrgOwner: isOrgOwner(inOrg, orgId),
    teamModes: inOrg.filter((t) => hasRepository(t, repositoryId)).map(teamMode),
  };
}

/**
 * The names of `userId`'s teams in `owner` when it is an organization (branch protection
 * whitelists name teams, as Gitea's do); empty for a user-owned repository or anonymous.
 */
export async function pusherTeamNames(
  store: { memberTeamsOf(userId: number, orgIds: number[] | undefined, repositoryIds: number[]): Promise<MemberTeam[]> },
  owner: { id: number; type: string },
  userId: number,
): Promise<string[]> {
  if (owner.type !== 'organization' || userId <= 0) return [];
  return (await store.memberTeamsOf(userId, [owner.id], [])).map((team) => team.name);
}
