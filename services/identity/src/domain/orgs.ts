// Organizations (Gitea's routers/api/v1/org/org.go, services/org): creating one with its
// Owners team, reading it as far as the caller may see it, editing, renaming, deleting.
import { alreadyExists, DomainError, forbidden, invalid, notFound, type Caller } from '@anvil/kit';
import { pageOf, userNotFound, type IdentitySettings } from './context.js';
import { emailProblem, emailProblemMessage } from './email.js';
import { forgetFollowsOf } from './follows.js';
import { assertUsableLogin } from './login.js';
import {
  canAdministerOrg, canCreateOrg, canSeeOrg, canSeeUser, listedVisibilities, NO_STANDING, userOrgsFilter, type Standing,
} from './orgs-access.js';
import { OWNERS_TEAM_NAME, type Org, type OrgReader, type OrgStore, type OrgWriter } from './orgs-store.js';
import { UniqueViolation } from './store.js';
import { allUnitsAt } from './teams-units.js';
import type { Page, Paged, UserFields, Visibility } from './user.js';

/** What the organization rules work with (main.ts builds it beside Identity). */
export interface Orgs {
  store: OrgStore;
  settings: IdentitySettings;
}

export const orgNotFound = (name: string): DomainError => notFound(`org does not exist [name: ${name}]`, 'org_not_found');
const nameTaken = (name: string) => alreadyExists(`user already exists [name: ${name}]`, 'user_already_exists');

export async function standingOf(store: OrgReader, orgId: number, caller: Caller): Promise<Standing> {
  if (caller.userId <= 0) return NO_STANDING;
  const [membership, owner] = await Promise.all([store.membership(orgId, caller.userId), store.isOwner(orgId, caller.userId)]);
  return { member: membership !== undefined, owner };
}

/** The organization and the caller's standing; 404 when it does not exist or is hidden. */
export async function visibleOrg(store: OrgReader, caller: Caller, name: string): Promise<{ org: Org; standing: Standing }> {
  const org = name ? await store.orgByName(name) : undefined;
  if (!org) throw orgNotFound(name);
  const standing = await standingOf(store, org.account.id, caller);
  if (!canSeeOrg(org.account, caller, standing)) throw orgNotFound(name);
  return { org, standing };
}

/** As visibleOrg, then 403 unless the caller owns it or is a site administrator. */
export async function administeredOrg(store: OrgReader, caller: Caller, name: string): Promise<{ org: Org; standing: Standing }> {
  const found = await visibleOrg(store, caller, name);
  if (!canAdministerOrg(caller, found.standing)) throw forbidden('Must be an organization owner', 'org_owner_required');
  return found;
}

function assertEmail(email: string | undefined): void {
  if (!email) return;
  const problem = emailProblem(email);
  if (problem) throw invalid(emailProblemMessage(problem, email), 'email_invalid');
}

/** Gitea truncates profile texts to 255 characters. */
const truncate255 = (value: string): string => [...value].slice(0, 255).join('');

export interface CreateOrgInput {
  /** Empty: the caller. Naming another user is site-admin work. */
  owner_login: string;
  name: string;
  full_name: string;
  email: string;
  description: string;
  website: string;
  location: string;
  visibility?: Visibility;
  repo_admin_change_team_access: boolean;
}

/** Creates the organization, its Owners team, and makes the owner its first member. */
export async function createOrg(orgs: Orgs, caller: Caller, input: CreateOrgInput): Promise<Org> {
  if (caller.userId <= 0 && !caller.isAdmin) throw forbidden('sign in to create an organization', 'sign_in_required');
  if (input.owner_login && !caller.isAdmin) throw forbidden('user should be the site admin', 'site_admin_required');
  assertUsableLogin(input.name);
  assertEmail(input.email);
  return orgs.store.transaction(async (tx) => {
    const owner = input.owner_login ? await tx.lockUserByLogin(input.owner_login) : await tx.lockUserById(caller.userId);
    if (!owner || owner.type !== 'user') throw userNotFound({ login: input.owner_login, id: input.owner_login ? 0 : caller.userId });
    if (!input.owner_login && !canCreateOrg(owner)) throw forbidden('Create organization not allowed', 'org_creation_not_allowed');
    if (await tx.userByLogin(input.name)) throw nameTaken(input.name);
    const fields: UserFields = {
      type: 'organization', login: input.name, full_name: input.full_name, email: input.email,
      keep_email_private: false, passwd: '', must_change_password: false, source_id: 0, login_name: '',
      location: truncate255(input.location), website: truncate255(input.website), description: truncate255(input.description),
      language: '', visibility: input.visibility ?? 'public', is_admin: false, active: true, restricted: false,
      // Nobody signs in as an organization.
      prohibit_login: true, max_repo_creation: -1, allow_git_hook: false, allow_import_local: false,
      allow_create_organization: false, last_login: null,
    };
    let account;
    try {
      account = await tx.insertUser(fields);
    } catch (err) {
      if (err instanceof UniqueViolation) throw nameTaken(input.name);
      throw err;
    }
    await tx.insertOrgSettings(account.id, input.repo_admin_change_team_access);
    const org: Org = { account, repo_admin_change_team_access: input.repo_admin_change_team_access };
    const owners = await tx.insertTeam({
      org_id: account.id, name: OWNERS_TEAM_NAME, description: '', access_mode: 'owner', units: allUnitsAt('owner'),
      includes_all_repositories: true, can_create_org_repo: true, visibility: 'private',
    });
    await tx.addTeamMember(owners, owner.id);
    await tx.publish({ kind: 'org.created', org });
    await tx.publish({ kind: 'team.created', team: owners });
    await tx.publish({ kind: 'team.member_added', team_id: owners.id, org_id: account.id, user_id: owner.id });
    return org;
  });
}

export async function getOrg(orgs: Orgs, caller: Caller, name: string): Promise<{ org: Org; standing: Standing }> {
  return visibleOrg(orgs.store, caller, name);
}

/** GET /orgs (public, and limited when signed in) or, for site administrators, every organization. */
export async function listOrgs(orgs: Orgs, caller: Caller, all: boolean, page?: Partial<Page> | null): Promise<Paged<Org>> {
  if (all && !caller.isAdmin) throw forbidden('user should be the site admin', 'site_admin_required');
  const visibilities: Visibility[] = all ? ['public', 'limited', 'private'] : listedVisibilities(caller);
  return orgs.store.listOrgs(visibilities, pageOf(page, orgs.settings));
}

/** The organizations of a user, as far as the caller may see them; 404 for a hidden user. */
export async function listUserOrgs(orgs: Orgs, caller: Caller, login: string, page?: Partial<Page> | null): Promise<Paged<Org>> {
  const user = login ? await orgs.store.userByLogin(login) : undefined;
  if (!user || user.type !== 'user' || !canSeeUser(user, caller)) throw userNotFound({ login });
  return orgs.store.userOrgs(user.id, userOrgsFilter(caller, user), pageOf(page, orgs.settings));
}

export interface EditOrgInput {
  name: string;
  full_name?: string;
  email?: string;
  description?: string;
  website?: string;
  location?: string;
  visibility?: Visibility;
  repo_admin_change_team_access?: boolean;
}

export async function editOrg(orgs: Orgs, caller: Caller, input: EditOrgInput): Promise<Org> {
  assertEmail(input.email);
  return orgs.store.transaction(async (tx) => {
    const { org } = await administeredOrg(tx, caller, input.name);
    const account = org.account;
    const patch: Partial<UserFields> = {};
    const set = <K extends keyof UserFields>(key: K, value: UserFields[K] | undefined) => {
      if (value !== undefined && value !== account[key]) patch[key] = value;
    };
    set('full_name', input.full_name);
    set('email', input.email);
    set('description', input.description === undefined ? undefined : truncate255(input.description));
    set('website', input.website === undefined ? undefined : truncate255(input.website));
    set('location', input.location === undefined ? undefined : truncate255(input.location));
    set('visibility', input.visibility);
    const settingChanged = input.repo_admin_change_team_access !== undefined
      && input.repo_admin_change_team_access !== org.repo_admin_change_team_access;
    if (Object.keys(patch).length === 0 && !settingChanged) return org;
    const updated: Org = {
      account: Object.keys(patch).length ? await tx.updateUser(account.id, patch) : account,
      repo_admin_change_team_access: input.repo_admin_change_team_access ?? org.repo_admin_change_team_access,
    };
    if (settingChanged) await tx.updateOrgSettings(account.id, updated.repo_admin_change_team_access);
    await tx.publish({ kind: 'org.updated', org: updated });
    return updated;
  });
}

/** Renames the organization; the new name must be free among users and organizations. */
export async function renameOrg(orgs: Orgs, caller: Caller, name: string, newName: string): Promise<void> {
  assertUsableLogin(newName);
  await orgs.store.transaction(async (tx) => {
    const { org } = await administeredOrg(tx, caller, name);
    if (newName === org.account.login) return;
    const holder = await tx.userByLogin(newName);
    if (holder && holder.id !== org.account.id) throw nameTaken(newName);
    let account;
    try {
      account = await tx.updateUser(org.account.id, { login: newName });
    } catch (err) {
      if (err instanceof UniqueViolation) throw nameTaken(newName);
      throw err;
    }
    await tx.publish({ kind: 'org.updated', org: { ...org, account }, previous_name: org.account.login });
  });
}

/**
 * Deletes the organization with its teams and memberships. Gitea refuses while it owns
 * repositories; the repository service does not own organization repositories yet, so
 * there is nothing to refuse on here until it does.
 */
export async function deleteOrg(orgs: Orgs, caller: Caller, name: string): Promise<void> {
  await orgs.store.transaction(async (tx: OrgWriter) => {
    const { org } = await administeredOrg(tx, caller, name);
    // Its followers stop following it (their counts move); an organization follows no one.
    await forgetFollowsOf(tx, org.account.id);
    await tx.deleteOrg(org.account.id);
    await tx.publish({ kind: 'org.deleted', org_id: org.account.id, name: org.account.login });
  });
}
