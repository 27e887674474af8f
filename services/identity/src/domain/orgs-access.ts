// Who may see and act on an organization (Gitea's HasOrgOrUserVisible, reqOrgMembership,
// reqOrgOwnership, DoerViewOtherVisibility), as plain functions of the caller and their
// standing in the organization, so every rule is unit-testable without storage.
import type { Caller } from '@anvil/kit';
import type { User, Visibility } from './user.js';

/** The caller's standing in one organization. */
export interface Standing {
  member: boolean;
  owner: boolean;
}

export const NO_STANDING: Standing = { member: false, owner: false };

/** A token limited to public data sees what an anonymous caller sees. */
const actsAnonymously = (caller: Caller): boolean => caller.userId <= 0 || caller.scopes.includes('public-only');

/**
 * Public organizations are seen by everyone, limited ones by signed-in callers (restricted
 * users only where they are members), private ones by members and site administrators.
 */
export function canSeeOrg(org: Pick<User, 'visibility'>, caller: Caller, standing: Standing): boolean {
  if (org.visibility === 'public') return true;
  if (actsAnonymously(caller)) return false;
  if (caller.isAdmin || standing.member) return true;
  return org.visibility === 'limited' && !caller.restricted;
}

/** Org settings, teams and memberships are changed by owners and site administrators. */
export const canAdministerOrg = (caller: Caller, standing: Standing): boolean => caller.isAdmin || standing.owner;

/** Teams and the full member list are for members and site administrators. */
export const canSeeOrgInsides = (caller: Caller, standing: Standing): boolean => caller.isAdmin || standing.member;

/** The organization visibilities GET /orgs lists: Gitea never lists private ones there. */
export function listedVisibilities(caller: Caller): Visibility[] {
  return actsAnonymously(caller) ? ['public'] : ['public', 'limited'];
}

/**
 * What the caller may see of `user`'s organizations (GET /users/{username}/orgs): everything
 * for the user and site administrators; otherwise only memberships the user made public, in
 * organizations the caller could list.
 */
export function userOrgsFilter(caller: Caller, user: Pick<User, 'id'>): { visibilities: Visibility[]; publicMembershipsOnly: boolean } {
  if (!actsAnonymously(caller) && (caller.isAdmin || caller.userId === user.id)) {
    return { visibilities: ['public', 'limited', 'private'], publicMembershipsOnly: false };
  }
  return { visibilities: listedVisibilities(caller), publicMembershipsOnly: true };
}

/** Gitea's IsUserVisibleToViewer for a user account named in a path. */
export function canSeeUser(user: Pick<User, 'id' | 'visibility'>, caller: Caller): boolean {
  if (user.visibility === 'public') return true;
  if (actsAnonymously(caller)) return false;
  return user.visibility === 'limited' || caller.isAdmin || caller.userId === user.id;
}

/** Whether a signed-in user may create organizations (Gitea's CanCreateOrganization). */
export const canCreateOrg = (user: Pick<User, 'is_admin' | 'allow_create_organization'>): boolean =>
  user.is_admin || user.allow_create_organization;

/**
 * Which of an organization's teams the caller may list (the contract's team visibility):
 * owners and site admins every team; members public and limited ones plus their own;
 * other signed-in users public ones.
 */
export function listableTeams(caller: Caller, standing: Standing): 'all' | Visibility[] {
  if (caller.isAdmin || standing.owner) return 'all';
  if (actsAnonymously(caller)) return [];
  return standing.member ? ['public', 'limited'] : ['public'];
}

/** Whether the caller may see one team: as listableTeams, and always a team they are in. */
export function canSeeTeam(team: { visibility: Visibility }, caller: Caller, standing: Standing, inTeam: boolean): boolean {
  const listable = listableTeams(caller, standing);
  return inTeam || listable === 'all' || listable.includes(team.visibility);
}
