// Teams of an organization (Gitea's routers/api/v1/org/team.go, services/org/team.go):
// members and owners list them, owners change them, the Owners team stays.
import { alreadyExists, DomainError, forbidden, invalid, notFound, type Caller } from '@anvil/kit';
import { pageOf, userNotFound } from './context.js';
import { canAdministerOrg, canSeeOrg, canSeeTeam, listableTeams, type Standing } from './orgs-access.js';
import { assertNotLastOwner } from './orgs-members.js';
import { administeredOrg, standingOf, visibleOrg, type Orgs } from './orgs.js';
import { isOwnersTeam, type Org, type OrgReader, type Team, type TeamFields } from './orgs-store.js';
import { UniqueViolation } from './store.js';
import { teamAccessOf } from './teams-units.js';
import type { Page, Paged, User, Visibility } from './user.js';

export const teamNotFound = (id: number): DomainError => notFound(`team does not exist [id: ${id}]`, 'team_not_found');
const teamExists = (orgId: number, name: string) =>
  alreadyExists(`team already exists [org_id: ${orgId}, name: ${name}]`, 'team_already_exists');

// Gitea binds team names with AlphaDashDot and MaxSize(255).
const TEAM_NAME = /^[\w.-]+$/;
function assertTeamName(name: string): void {
  if (!name) throw invalid('[name]: Required', 'team_name_required');
  if (!TEAM_NAME.test(name)) throw invalid('[name]: AlphaDashDot', 'team_name_invalid');
  if ([...name].length > 255) throw invalid('[name]: MaxSize', 'team_name_invalid');
}

const TEAM_VISIBILITIES: readonly string[] = ['public', 'limited', 'private'];
function teamVisibilityOf(value: string | undefined): Visibility | undefined {
  if (value === undefined || value === '') return undefined;
  if (!TEAM_VISIBILITIES.includes(value)) throw invalid('[visibility]: must be one of public, limited, private', 'team_visibility_invalid');
  return value as Visibility;
}

/**
 * The team with its organization and the caller's standing, as Gitea's reqTeamMembership:
 * site admins, org owners and the team's members pass, and so does whoever may list the
 * team (its visibility); other org members get 403; anyone else 404.
 */
export async function accessibleTeam(store: OrgReader, caller: Caller, id: number): Promise<{ team: Team; org: Org; standing: Standing }> {
  const team = id > 0 ? await store.teamById(id) : undefined;
  const org = team ? await store.orgById(team.org_id) : undefined;
  if (!team || !org) throw teamNotFound(id);
  const standing = await standingOf(store, org.account.id, caller);
  if (caller.isAdmin || standing.owner) return { team, org, standing };
  const inTeam = caller.userId > 0 && (await store.isTeamMember(team.id, caller.userId));
  if (canSeeOrg(org.account, caller, standing) && canSeeTeam(team, caller, standing, inTeam)) return { team, org, standing };
  if (standing.member) throw forbidden('Must be a team member', 'team_member_required');
  throw teamNotFound(id);
}

async function administeredTeam(store: OrgReader, caller: Caller, id: number) {
  const found = await accessibleTeam(store, caller, id);
  if (!canAdministerOrg(caller, found.standing)) throw forbidden('Must be an organization owner', 'org_owner_required');
  return found;
}

export interface ListTeamsInput {
  org: string;
  page?: Partial<Page> | null;
  /** /teams/search: only the caller's teams unless they own the organization. */
  search?: { q: string; include_desc: boolean };
}

export async function listTeams(orgs: Orgs, caller: Caller, input: ListTeamsInput): Promise<Paged<Team>> {
  const { org, standing } = await visibleOrg(orgs.store, caller, input.org);
  const listable = listableTeams(caller, standing);
  if (listable !== 'all' && listable.length === 0) throw forbidden('Must be an organization member', 'org_member_required');
  const visible = listable === 'all' ? undefined : { visibilities: listable, member_uid: caller.userId };
  const page = pageOf(input.page, orgs.settings);
  if (!input.search) return orgs.store.teams({ org_id: org.account.id, visible, page });
  return orgs.store.teams({
    org_id: org.account.id,
    keyword: input.search.q.trim() || undefined,
    include_desc: input.search.include_desc,
    // Gitea's search shows non-owners only their own teams.
    member_uid: canAdministerOrg(caller, standing) ? undefined : caller.userId,
    page,
  });
}

export interface CreateTeamInput {
  org: string;
  name: string;
  description: string;
  permission: string;
  units: string[];
  units_map: Record<string, string>;
  includes_all_repositories: boolean;
  can_create_org_repo: boolean;
  visibility: string;
}

export async function createTeam(orgs: Orgs, caller: Caller, input: CreateTeamInput): Promise<{ team: Team; org: Org }> {
  assertTeamName(input.name);
  const access = teamAccessOf(input);
  const visibility = teamVisibilityOf(input.visibility) ?? 'private';
  return orgs.store.transaction(async (tx) => {
    const { org } = await administeredOrg(tx, caller, input.org);
    const fields: TeamFields = {
      org_id: org.account.id, name: input.name, description: input.description, access_mode: access.access_mode,
      units: access.units, includes_all_repositories: input.includes_all_repositories,
      can_create_org_repo: input.can_create_org_repo, visibility,
    };
    try {
      const team = await tx.insertTeam(fields);
      await tx.publish({ kind: 'team.created', team });
      return { team, org };
    } catch (err) {
      if (err instanceof UniqueViolation) throw teamExists(org.account.id, input.name);
      throw err;
    }
  });
}

export async function getTeam(orgs: Orgs, caller: Caller, id: number): Promise<{ team: Team; org: Org }> {
  const { team, org } = await accessibleTeam(orgs.store, caller, id);
  return { team, org };
}

export interface EditTeamInput {
  id: number;
  name?: string;
  description?: string;
  permission?: string;
  units: string[];
  units_map: Record<string, string>;
  includes_all_repositories?: boolean;
  can_create_org_repo?: boolean;
  visibility?: string;
}

/** Gitea's EditTeam: the Owners team keeps its name, owner access and repository creation. */
export async function editTeam(orgs: Orgs, caller: Caller, input: EditTeamInput): Promise<{ team: Team; org: Org }> {
  if (input.name !== undefined && input.name !== '') assertTeamName(input.name);
  const visibility = teamVisibilityOf(input.visibility);
  return orgs.store.transaction(async (tx) => {
    const { team, org } = await administeredTeam(tx, caller, input.id);
    const owners = isOwnersTeam(team);
    const patch: Partial<TeamFields> = {};
    if (!owners && input.name) patch.name = input.name;
    if (input.description !== undefined) patch.description = input.description;
    if (input.can_create_org_repo !== undefined) patch.can_create_org_repo = owners || input.can_create_org_repo;
    if (visibility !== undefined) patch.visibility = visibility;
    if (!owners) {
      if (input.includes_all_repositories !== undefined) patch.includes_all_repositories = input.includes_all_repositories;
      const unitsGiven = input.units.length > 0 || Object.keys(input.units_map).length > 0;
      if (input.permission || unitsGiven) {
        // Without a permission the team keeps its mode (Gitea reapplies the current one).
        const access = teamAccessOf({
          permission: input.permission || team.access_mode,
          units: input.units.length ? input.units : Object.keys(team.units),
          units_map: input.units_map,
        });
        patch.access_mode = access.access_mode;
        patch.units = access.units;
      }
    }
    if (Object.keys(patch).length === 0) return { team, org };
    try {
      const updated = await tx.updateTeam(team.id, patch);
      await tx.publish({ kind: 'team.updated', team: updated });
      return { team: updated, org };
    } catch (err) {
      if (err instanceof UniqueViolation) throw teamExists(org.account.id, input.name ?? '');
      throw err;
    }
  });
}

export async function deleteTeam(orgs: Orgs, caller: Caller, id: number): Promise<void> {
  await orgs.store.transaction(async (tx) => {
    const { team } = await administeredTeam(tx, caller, id);
    if (isOwnersTeam(team)) throw invalid('owner team cannot be deleted', 'owners_team_undeletable');
    await tx.deleteTeam(team.id);
    await tx.publish({ kind: 'team.deleted', team_id: team.id, org_id: team.org_id, name: team.name });
  });
}

export async function listTeamMembers(orgs: Orgs, caller: Caller, id: number, page?: Partial<Page> | null): Promise<Paged<User>> {
  const { team } = await accessibleTeam(orgs.store, caller, id);
  return orgs.store.teamMembers(team.id, pageOf(page, orgs.settings));
}

/** The member, or 404 when the user is not in the team. */
export async function getTeamMember(orgs: Orgs, caller: Caller, id: number, login: string): Promise<User> {
  const { team } = await accessibleTeam(orgs.store, caller, id);
  const user = login ? await orgs.store.userByLogin(login) : undefined;
  if (!user || user.type !== 'user') throw userNotFound({ login });
  if (!(await orgs.store.isTeamMember(team.id, user.id))) throw notFound(`user is not a member of the team [uid: ${user.id}]`, 'not_team_member');
  return user;
}

export async function addTeamMember(orgs: Orgs, caller: Caller, id: number, login: string): Promise<void> {
  await orgs.store.transaction(async (tx) => {
    const { team } = await administeredTeam(tx, caller, id);
    // The user row is locked so a concurrent deletion of the user cannot miss the membership.
    const user = login ? await tx.lockUserByLogin(login) : undefined;
    if (!user || user.type !== 'user') throw userNotFound({ login });
    // Locked, so a concurrent deletion of the team (or its org) goes first or waits for us.
    if (!(await tx.lockTeam(team.id))) throw teamNotFound(team.id);
    if (await tx.addTeamMember(team, user.id)) {
      await tx.publish({ kind: 'team.member_added', team_id: team.id, org_id: team.org_id, user_id: user.id });
    }
  });
}

export async function removeTeamMember(orgs: Orgs, caller: Caller, id: number, login: string): Promise<void> {
  await orgs.store.transaction(async (tx) => {
    const { team } = await administeredTeam(tx, caller, id);
    const user = login ? await tx.userByLogin(login) : undefined;
    if (!user || user.type !== 'user') throw userNotFound({ login });
    const locked = await tx.lockTeam(team.id);
    if (!locked) throw teamNotFound(team.id);
    await assertNotLastOwner(tx, locked, user.id);
    if (await tx.removeTeamMember(locked, user.id)) {
      await tx.publish({ kind: 'team.member_removed', team_id: team.id, org_id: team.org_id, user_id: user.id });
    }
  });
}

/** The caller's teams across organizations, each with its organization. */
export async function listUserTeams(orgs: Orgs, caller: Caller, page?: Partial<Page> | null): Promise<Paged<{ team: Team; org: Org }>> {
  if (caller.userId <= 0) return { items: [], total: 0 };
  return orgs.store.userTeams(caller.userId, pageOf(page, orgs.settings));
}
