// Organization members (Gitea's routers/api/v1/org/member.go, services/org RemoveOrgUser):
// a user is a member while they belong to one of the organization's teams; members choose
// whether their membership is public.
import { DomainError, forbidden, type Caller } from '@anvil/kit';
import { deleteUserIn } from './accounts.js';
import { pageOf, requireSiteAdmin, userNotFound } from './context.js';
import { canSeeOrg, canSeeOrgInsides, canSeeUser } from './orgs-access.js';
import { administeredOrg, orgNotFound, standingOf, visibleOrg, type Orgs } from './orgs.js';
import { isOwnersTeam, type OrgWriter, type Team } from './orgs-store.js';
import { accessModeNumber } from './teams-units.js';
import type { Page, Paged, User } from './user.js';

export const lastOwner = (uid: number): DomainError =>
  new DomainError('invalid', `user is the last member of owner team [uid: ${uid}]`, 'last_org_owner');

/** Refuses taking the last member out of an Owners team: an organization always has an owner. */
export async function assertNotLastOwner(tx: OrgWriter, team: Team, uid: number): Promise<void> {
  if (isOwnersTeam(team) && (await tx.isTeamMember(team.id, uid)) && (await tx.teamMemberCount(team.id)) <= 1) throw lastOwner(uid);
}

/** Members of the organization; callers outside it (and anonymous ones) see public members only. */
export async function listMembers(
  orgs: Orgs, caller: Caller, org: string, publicOnly: boolean, page?: Partial<Page> | null,
): Promise<Paged<User>> {
  const found = await visibleOrg(orgs.store, caller, org);
  const onlyPublic = publicOnly || !canSeeOrgInsides(caller, found.standing);
  return orgs.store.members(found.org.account.id, onlyPublic, pageOf(page, orgs.settings));
}

export interface MembershipFacts {
  user: User;
  is_member: boolean;
  is_public: boolean;
  caller_is_member: boolean;
}

/** What Gitea's IsMember/IsPublicMember need to answer 204, 404 or a redirect. */
export async function getMembership(orgs: Orgs, caller: Caller, org: string, login: string): Promise<MembershipFacts> {
  const found = await visibleOrg(orgs.store, caller, org);
  const user = login ? await orgs.store.userByLogin(login) : undefined;
  if (!user || user.type !== 'user') throw userNotFound({ login });
  const membership = await orgs.store.membership(found.org.account.id, user.id);
  return { user, is_member: membership !== undefined, is_public: membership?.is_public ?? false, caller_is_member: found.standing.member };
}

/** Takes the user out of every team of the organization (owners only; never the last owner). */
export async function removeMember(orgs: Orgs, caller: Caller, org: string, login: string): Promise<void> {
  await orgs.store.transaction(async (tx) => {
    const { org: found } = await administeredOrg(tx, caller, org);
    const user = login ? await tx.userByLogin(login) : undefined;
    if (!user || user.type !== 'user') throw userNotFound({ login });
    for (const teamId of await tx.userTeamIds(found.account.id, user.id)) {
      const team = await tx.lockTeam(teamId);
      if (!team) continue;
      await assertNotLastOwner(tx, team, user.id);
      if (await tx.removeTeamMember(team, user.id)) {
        await tx.publish({ kind: 'team.member_removed', team_id: team.id, org_id: team.org_id, user_id: user.id });
      }
    }
  });
}

/** A member shows or hides their own membership; nobody else may, not even an owner. */
export async function setMemberPublic(orgs: Orgs, caller: Caller, org: string, login: string, isPublic: boolean): Promise<void> {
  await orgs.store.transaction(async (tx) => {
    const { org: found, standing } = await visibleOrg(tx, caller, org);
    if (!canSeeOrgInsides(caller, standing)) throw forbidden('Must be an organization member', 'org_member_required');
    const user = login ? await tx.userByLogin(login) : undefined;
    if (!user || user.type !== 'user') throw userNotFound({ login });
    if (user.id !== caller.userId) {
      throw forbidden(isPublic ? 'Cannot publicize another member' : 'Cannot conceal another member', 'not_self');
    }
    // Gitea answers 204 and changes nothing for a user who is not a member.
    await tx.setMemberPublic(found.account.id, user.id, isPublic);
  });
}

/**
 * Takes the user out of every organization, deleting those they are the last owner of, as
 * Gitea's purging user deletion does.
 */
export async function leaveEveryOrg(tx: OrgWriter, user: User): Promise<void> {
  for (const orgId of await tx.membershipOrgIds(user.id)) {
    for (const teamId of await tx.userTeamIds(orgId, user.id)) {
      const team = await tx.lockTeam(teamId);
      if (!team) continue;
      if (isOwnersTeam(team) && (await tx.teamMemberCount(team.id)) <= 1) {
        const org = await tx.orgById(orgId);
        await tx.deleteOrg(orgId);
        await tx.publish({ kind: 'org.deleted', org_id: orgId, name: org?.account.login ?? '' });
        break;
      }
      if (await tx.removeTeamMember(team, user.id)) {
        await tx.publish({ kind: 'team.member_removed', team_id: team.id, org_id: orgId, user_id: user.id });
      }
    }
  }
}

/** DELETE /admin/users/{username}?purge=true: the account goes, with its organization memberships. */
export async function purgeUser(orgs: Orgs, caller: Caller, login: string): Promise<void> {
  requireSiteAdmin(caller);
  await orgs.store.transaction((tx) => deleteUserIn(tx, caller, login, (user) => leaveEveryOrg(tx, user)));
}

export interface OrgPermissions {
  can_read: boolean;
  can_write: boolean;
  is_admin: boolean;
  is_owner: boolean;
  can_create_repository: boolean;
}

/**
 * What `login` may do in the organization, from the highest access among their teams
 * (Gitea's GetUserOrgsPermissions). The user and the organization must both be visible to
 * the caller, and the organization to the user.
 */
export async function memberPermissions(orgs: Orgs, caller: Caller, org: string, login: string): Promise<OrgPermissions> {
  const user = login ? await orgs.store.userByLogin(login) : undefined;
  if (!user || user.type !== 'user' || !canSeeUser(user, caller)) throw userNotFound({ login });
  const found = await visibleOrg(orgs.store, caller, org);
  const orgId = found.org.account.id;
  const asUser: Caller = { userId: user.id, login: user.login, isAdmin: user.is_admin, restricted: user.restricted, scopes: ['all'] };
  if (!canSeeOrg(found.org.account, asUser, await standingOf(orgs.store, orgId, asUser))) throw orgNotFound(org);
  // A user belongs to few teams of one organization; one page holds them all.
  const teams = (await orgs.store.teams({ org_id: orgId, member_uid: user.id, page: { page: 1, limit: 10_000 } })).items;
  const level = Math.max(0, ...teams.map((team) => accessModeNumber(team.access_mode)));
  return {
    can_read: level > accessModeNumber('none'),
    can_write: level > accessModeNumber('read'),
    is_admin: level > accessModeNumber('write'),
    is_owner: level > accessModeNumber('admin'),
    can_create_repository: teams.some((team) => isOwnersTeam(team) || team.can_create_org_repo),
  };
}
