// Teams (routers/api/v1/org/team.go): an organization's teams, a team and its members, and
// the signed-in user's teams. Teams' repositories (/teams/{id}/repos) are in org-repos.ts.
import type { identity } from '@anvil/proto';
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentTeam } from '@anvil/presenters/team.js';
import { presentUser } from '@anvil/presenters/user.js';

const TEAM_STATUS = { team_already_exists: 422, last_org_owner: 422, owners_team_undeletable: 422 };

const teamId = (ctx: RouteContext): number => {
  const id = Number(ctx.params.id);
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
};

const teamsOf = (ctx: RouteContext, page: identity.TeamPage) => page.teams.map((t) => presentTeam(t, ctx.deps.config.rootUrl));

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const flag = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
const unitsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
const unitsMapOf = (value: unknown): Record<string, string> =>
  value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)])) : {};

export const teamsRoutes: Route[] = [
  {
    method: 'GET', path: '/orgs/:org/teams', operationId: 'orgListTeams', access: 'signed', scopes: ['organization'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const result = await ctx.deps.services.orgs.ListTeams({ org: ctx.params.org, page: { page, limit } }, { caller: ctx.caller });
      return ok(teamsOf(ctx, result), Number(result.total));
    },
  },
  {
    method: 'POST', path: '/orgs/:org/teams', operationId: 'orgCreateTeam', access: 'signed', scopes: ['organization'], statusOverrides: TEAM_STATUS,
    async handle(ctx) {
      const body = ctx.body as Record<string, unknown>;
      const team = await ctx.deps.services.orgs.CreateTeam({
        org: ctx.params.org,
        name: text(body.name) ?? '',
        description: text(body.description) ?? '',
        permission: text(body.permission) ?? '',
        units: unitsOf(body.units),
        units_map: unitsMapOf(body.units_map),
        includes_all_repositories: flag(body.includes_all_repositories) ?? false,
        can_create_org_repo: flag(body.can_create_org_repo) ?? false,
        visibility: text(body.visibility) ?? '',
      }, { caller: ctx.caller });
      return created(presentTeam(team, ctx.deps.config.rootUrl));
    },
  },
  {
    // Gitea answers the search as {ok, data}.
    method: 'GET', path: '/orgs/:org/teams/search', operationId: 'teamSearch', access: 'signed', scopes: ['organization'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const result = await ctx.deps.services.orgs.ListTeams({
        org: ctx.params.org,
        page: { page, limit },
        search: true,
        q: text(ctx.query.q) ?? '',
        include_desc: ctx.query.include_desc === undefined || ctx.query.include_desc === 'true',
      }, { caller: ctx.caller });
      return ok({ ok: true, data: teamsOf(ctx, result) }, Number(result.total));
    },
  },
  {
    method: 'GET', path: '/teams/:id', operationId: 'orgGetTeam', access: 'signed', scopes: ['organization'],
    async handle(ctx) {
      const team = await ctx.deps.services.orgs.GetTeam({ id: teamId(ctx) }, { caller: ctx.caller });
      return ok(presentTeam(team, ctx.deps.config.rootUrl));
    },
  },
  {
    method: 'PATCH', path: '/teams/:id', operationId: 'orgEditTeam', access: 'signed', scopes: ['organization'], statusOverrides: TEAM_STATUS,
    async handle(ctx) {
      const body = ctx.body as Record<string, unknown>;
      const team = await ctx.deps.services.orgs.EditTeam({
        id: teamId(ctx),
        name: text(body.name),
        description: text(body.description),
        permission: text(body.permission),
        units: unitsOf(body.units),
        units_map: unitsMapOf(body.units_map),
        includes_all_repositories: flag(body.includes_all_repositories),
        can_create_org_repo: flag(body.can_create_org_repo),
        visibility: text(body.visibility),
      }, { caller: ctx.caller });
      return ok(presentTeam(team, ctx.deps.config.rootUrl));
    },
  },
  {
    method: 'DELETE', path: '/teams/:id', operationId: 'orgDeleteTeam', access: 'signed', scopes: ['organization'], statusOverrides: TEAM_STATUS,
    async handle(ctx) {
      await ctx.deps.services.orgs.DeleteTeam({ id: teamId(ctx) }, { caller: ctx.caller });
      return noContent();
    },
  },
  {
    method: 'GET', path: '/teams/:id/members', operationId: 'orgListTeamMembers', access: 'signed', scopes: ['organization'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const result = await ctx.deps.services.orgs.ListTeamMembers({ id: teamId(ctx), page: { page, limit } }, { caller: ctx.caller });
      return ok(result.users.map((u) => presentUser(u, ctx.caller, ctx.deps.config.rootUrl)), Number(result.total));
    },
  },
  {
    method: 'GET', path: '/teams/:id/members/:username', operationId: 'orgListTeamMember', access: 'signed', scopes: ['organization'],
    async handle(ctx) {
      const user = await ctx.deps.services.orgs.GetTeamMember({ id: teamId(ctx), login: ctx.params.username }, { caller: ctx.caller });
      return ok(presentUser(user, ctx.caller, ctx.deps.config.rootUrl));
    },
  },
  {
    method: 'PUT', path: '/teams/:id/members/:username', operationId: 'orgAddTeamMember', access: 'signed', scopes: ['organization'], statusOverrides: TEAM_STATUS,
    async handle(ctx) {
      await ctx.deps.services.orgs.AddTeamMember({ id: teamId(ctx), login: ctx.params.username }, { caller: ctx.caller });
      return noContent();
    },
  },
  {
    method: 'DELETE', path: '/teams/:id/members/:username', operationId: 'orgRemoveTeamMember', access: 'signed', scopes: ['organization'], statusOverrides: TEAM_STATUS,
    async handle(ctx) {
      await ctx.deps.services.orgs.RemoveTeamMember({ id: teamId(ctx), login: ctx.params.username }, { caller: ctx.caller });
      return noContent();
    },
  },
  {
    method: 'GET', path: '/user/teams', operationId: 'userListTeams', access: 'signed', scopes: ['organization'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const result = await ctx.deps.services.orgs.ListUserTeams({ page: { page, limit } }, { caller: ctx.caller });
      return ok(teamsOf(ctx, result), Number(result.total));
    },
  },
];
