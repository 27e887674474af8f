// Organization-owned repositories (routers/api/v1/repo/repo.go CreateOrgRepo, org ListRepos)
// and a team's repositories (routers/api/v1/org/team.go). Identity says whether the caller
// may see the organization or team; repository owns the repositories and who may reach them.
import type { identity, repository } from '@anvil/proto';
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentOne, presentRepositories } from './repo-context.js';
import { CREATE_OVERRIDES, createOption, search } from './repos.js';

const ORG_CREATE_OVERRIDES = { ...CREATE_OVERRIDES, org_repo_creation_denied: 403, owner_not_found: 404, repo_limit_reached: 403 };

async function createOrgRepo(ctx: RouteContext) {
  // The organization as identity knows it (404 when the caller may not see it); repository
  // then checks the caller may create repositories in it.
  const view = await ctx.deps.services.orgs.GetOrg({ name: ctx.params.org }, { caller: ctx.caller });
  const access = await ctx.deps.services.repository.CreateRepository(createOption(ctx, Number(view.org?.account?.id ?? 0)), { caller: ctx.caller });
  return created(presentOne(ctx, access));
}

const teamId = (ctx: RouteContext): number => {
  const id = Number(ctx.params.id);
  return Number.isSafeInteger(id) && id > 0 ? id : 0;
};

/** The team, from identity, which answers 404 (or 403) when the caller may not see it. */
async function teamScope(ctx: RouteContext): Promise<repository.TeamScopeInput> {
  const team: identity.Team = await ctx.deps.services.orgs.GetTeam({ id: teamId(ctx) }, { caller: ctx.caller });
  return { team_id: team.id, org_id: team.org_id, includes_all_repositories: team.includes_all_repositories };
}

const teamRepoRequest = async (ctx: RouteContext): Promise<repository.TeamRepositoryRequestInput> => ({ team: await teamScope(ctx), name: ctx.params.repo });

export const orgRepoRoutes: Route[] = [
  {
    method: 'POST', path: '/orgs/:org/repos', operationId: 'createOrgRepo', access: 'signed', scopes: ['organization', 'repository'],
    statusOverrides: ORG_CREATE_OVERRIDES, handle: createOrgRepo,
  },
  {
    method: 'POST', path: '/org/:org/repos', operationId: 'createOrgRepoDeprecated', access: 'signed', scopes: ['organization', 'repository'],
    statusOverrides: ORG_CREATE_OVERRIDES, handle: createOrgRepo,
  },
  {
    method: 'GET', path: '/orgs/:org/repos', operationId: 'orgListRepos', access: 'public', scopes: ['organization', 'repository'],
    async handle(ctx) {
      const reply = await search(ctx, { owner_login: ctx.params.org, owner_is_org: true, exclusive: true });
      return ok(presentRepositories(ctx, reply.repositories), reply.total);
    },
  },
  {
    method: 'GET', path: '/teams/:id/repos', operationId: 'orgListTeamRepos', access: 'signed', scopes: ['organization'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.teamAccess.ListTeamRepositories({ team: await teamScope(ctx), page: { page, limit } }, { caller: ctx.caller });
      return ok(presentRepositories(ctx, reply.repositories), reply.total);
    },
  },
  {
    method: 'GET', path: '/teams/:id/repos/:org/:repo', operationId: 'orgListTeamRepo', access: 'signed', scopes: ['organization'],
    async handle(ctx) {
      return ok(presentOne(ctx, await ctx.deps.services.teamAccess.GetTeamRepository(await teamRepoRequest(ctx), { caller: ctx.caller })));
    },
  },
  {
    method: 'PUT', path: '/teams/:id/repos/:org/:repo', operationId: 'orgAddTeamRepository', access: 'signed', scopes: ['organization'],
    statusOverrides: { repo_admin_required: 403 },
    async handle(ctx) {
      await ctx.deps.services.teamAccess.AddTeamRepository(await teamRepoRequest(ctx), { caller: ctx.caller });
      return noContent();
    },
  },
  {
    method: 'DELETE', path: '/teams/:id/repos/:org/:repo', operationId: 'orgRemoveTeamRepository', access: 'signed', scopes: ['organization'],
    statusOverrides: { repo_admin_required: 403 },
    async handle(ctx) {
      await ctx.deps.services.teamAccess.RemoveTeamRepository(await teamRepoRequest(ctx), { caller: ctx.caller });
      return noContent();
    },
  },
];
