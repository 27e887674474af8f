// anvil.identity.v1.OrgService: decode the request, call the organization and team rules,
// encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type identity } from '@anvil/proto';
import { getMembership, listMembers, memberPermissions, removeMember, setMemberPublic } from '../domain/orgs-members.js';
import { createOrg, deleteOrg, editOrg, getOrg, listOrgs, listUserOrgs, renameOrg, type Orgs } from '../domain/orgs.js';
import {
  addTeamMember, createTeam, deleteTeam, editTeam, getTeam, getTeamMember, listTeamMembers, listTeams, listUserTeams, removeTeamMember,
} from '../domain/teams.js';
import type { Paged, User } from '../domain/user.js';
import { userMessage, visibilityOf } from './messages.js';
import { orgMessage, teamMessage } from './org-messages.js';

export const ORG_SERVICE_NAME = 'anvil.identity.v1.OrgService';

type DeclaredMethods<H> = { [K in keyof H as string extends K ? never : K]: H[K] };
export type OrgServiceImplementation = ServiceImplementation<DeclaredMethods<identity.OrgServiceHandlers>>;

const userPage = (page: Paged<User>): identity.UserPageInput => ({ users: page.items.map(userMessage), total: page.total });

export function orgService(orgs: Orgs): OrgServiceImplementation {
  return {
    async CreateOrg(request, { caller }) {
      return orgMessage(await createOrg(orgs, caller, {
        owner_login: request.owner_login,
        name: request.name,
        full_name: request.full_name,
        email: request.email,
        description: request.description,
        website: request.website,
        location: request.location,
        visibility: visibilityOf(request.visibility),
        repo_admin_change_team_access: request.repo_admin_change_team_access,
      }));
    },

    async GetOrg(request, { caller }) {
      const { org, standing } = await getOrg(orgs, caller, request.name);
      return { org: orgMessage(org), caller_is_member: standing.member, caller_is_owner: standing.owner };
    },

    async ListOrgs(request, { caller }) {
      const page = await listOrgs(orgs, caller, request.all, request.page);
      return { orgs: page.items.map(orgMessage), total: page.total };
    },

    async ListUserOrgs(request, { caller }) {
      const page = await listUserOrgs(orgs, caller, request.login, request.page);
      return { orgs: page.items.map(orgMessage), total: page.total };
    },

    async EditOrg(request, { caller }) {
      return orgMessage(await editOrg(orgs, caller, {
        name: request.name,
        full_name: request.full_name,
        email: request.email,
        description: request.description,
        website: request.website,
        location: request.location,
        visibility: visibilityOf(request.visibility),
        repo_admin_change_team_access: request.repo_admin_change_team_access,
      }));
    },

    async RenameOrg(request, { caller }) {
      await renameOrg(orgs, caller, request.name, request.new_name);
      return {};
    },

    async DeleteOrg(request, { caller }) {
      await deleteOrg(orgs, caller, request.name);
      return {};
    },

    async ListMembers(request, { caller }) {
      return userPage(await listMembers(orgs, caller, request.org, request.public_only, request.page));
    },

    async GetMembership(request, { caller }) {
      const facts = await getMembership(orgs, caller, request.org, request.login);
      return { ...facts, user: userMessage(facts.user) };
    },

    async RemoveMember(request, { caller }) {
      await removeMember(orgs, caller, request.org, request.login);
      return {};
    },

    async SetMemberPublic(request, { caller }) {
      await setMemberPublic(orgs, caller, request.org, request.login, request.public);
      return {};
    },

    async GetMemberPermissions(request, { caller }) {
      return memberPermissions(orgs, caller, request.org, request.login);
    },

    async ListTeams(request, { caller }) {
      const page = await listTeams(orgs, caller, {
        org: request.org,
        page: request.page,
        search: request.search ? { q: request.q, include_desc: request.include_desc } : undefined,
      });
      return { teams: page.items.map((team) => teamMessage(team)), total: page.total };
    },

    async CreateTeam(request, { caller }) {
      const { team, org } = await createTeam(orgs, caller, { org: request.org, ...teamSettingsOf(request) });
      return teamMessage(team, org);
    },

    async GetTeam(request, { caller }) {
      const { team, org } = await getTeam(orgs, caller, Number(request.id));
      return teamMessage(team, org);
    },

    async EditTeam(request, { caller }) {
      const { team, org } = await editTeam(orgs, caller, { id: Number(request.id), ...teamSettingsOf(request) });
      return teamMessage(team, org);
    },

    async DeleteTeam(request, { caller }) {
      await deleteTeam(orgs, caller, Number(request.id));
      return {};
    },

    async ListTeamMembers(request, { caller }) {
      return userPage(await listTeamMembers(orgs, caller, Number(request.id), request.page));
    },

    async GetTeamMember(request, { caller }) {
      return userMessage(await getTeamMember(orgs, caller, Number(request.id), request.login));
    },

    async AddTeamMember(request, { caller }) {
      await addTeamMember(orgs, caller, Number(request.id), request.login);
      return {};
    },

    async RemoveTeamMember(request, { caller }) {
      await removeTeamMember(orgs, caller, Number(request.id), request.login);
      return {};
    },

    async ListUserTeams(request, { caller }) {
      const page = await listUserTeams(orgs, caller, request.page);
      return { teams: page.items.map(({ team, org }) => teamMessage(team, org)), total: page.total };
    },
  };
}

/**
 * The team settings CreateTeam and EditTeam both carry, under the names the domain takes
 * (without the proto3 `optional` markers an EditTeamRequest also holds).
 */
type TeamSetting = 'name' | 'description' | 'permission' | 'units' | 'units_map' | 'includes_all_repositories' | 'can_create_org_repo' | 'visibility';

function teamSettingsOf<R extends identity.CreateTeamRequest | identity.EditTeamRequest>(request: R): Pick<R, TeamSetting> {
  const { name, description, permission, units, units_map, includes_all_repositories, can_create_org_repo, visibility } = request;
  return { name, description, permission, units, units_map, includes_all_repositories, can_create_org_repo, visibility };
}

export function orgGrpcService(orgs: Orgs) {
  return {
    name: ORG_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.identity.v1.OrgService.service,
    implementation: orgService(orgs),
  };
}
