// Organization-owned repositories (routers/api/v1/repo/repo.go CreateOrgRepo, org ListRepos)
// and a team's repositories (routers/api/v1/org/team.go). Identity says whether the caller
// may see the organization or team; repository owns the repositories and who may reach them.
import { DomainError } from '@anvil/kit';
import type { identity, repository } from '@anvil/proto';
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentOne, presentRepositories } from './repo-context.js';
import { CREATE_OVERRIDES, createOption, search } from './repos.js';

const ORG_CREATE_OVERRIDES = { ...CREATE_OVERRIDES, org_repo_creation_denied: 403, owner_not_found: 404, repo_limit_reached: 403 };

/**
 * How long creating a repository in an organization waits for the repository service to
 * learn what identity already knows. Repository hears of a new organization, its Owners
 * team and a new team member from identity's events, a moment after identity answered;
 * a script that creates an organization (or joins a team) and then a repository in it
 * must not see 404 or 403 for that moment, as it never does with Gitea.
 */
const ORG_CATCH_UP_MS = 5_000;
const LAGGING_REASONS = new Set(['owner_not_found', 'org_repo_creation_denied']);

const lagging = (err: unknown): boolean => err instanceof DomainError && LAGGING_REASONS.has(err.reason);

async function createOrgRepo(ctx: RouteContext) {
  // The organization as identity knows it (404 when the caller may not see it); repository
  // then checks the caller may create repositories in it.
  const view = await ctx.deps.services.orgs.GetOrg({ name: ctx.params.org }, { caller: ctx.caller });
  const request = createOption(ctx, Number(view.org?.account?.id ?? 0));
  const create = () => ctx.deps.services.repository.CreateRepository(request, { caller: ctx.caller });
  try {
    return created(presentOne(ctx, await create()));
  } catch (err) {
    if (!lagging(err) || !(await identityAllowsCreation(ctx))) throw err;
    // A refusal changes nothing, so asking again is safe; identity decides whether to.
    const until = Date.now() + ORG_CATCH_UP_MS;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      try {
        return created(presentOne(ctx, await create()));
      } catch (again) {
        if (!lagging(again) || Date.now() >= until) throw again;
      }
    }
  }
}

/** Identity's answer to "may the caller create repositories in this organization?" */
async function identityAllowsCreation(ctx: RouteContext): Promise<boolean> {
  if (ctx.caller.isAdmin) return true;
  try {
    const permissions = await ctx.deps.services.orgs.GetMemberPermissions({ org: ctx.params.org, login: ctx.caller.login }, { caller: ctx.caller });
    return permissions.can_create_repository;
  } catch (err) {
    if (err instanceof DomainError) return false; // not a member: the refusal stands
    throw err;
  }
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
