// Stars (routers/api/v1/user/star.go, repo/star.go): starring a repository the caller can
// see, whether they do (204/404), who stars a repository, and the repositories a user stars —
// their ids from the repository service, then one search call that keeps what the caller may
// see and pages them. A repository the caller cannot see is 404 on every route.
import type { RouteContext, Route } from '../http/route.js';
import { noContent, ok } from '../http/route.js';
import { presentUser } from '@anvil/presenters/user.js';
import { repoCall, repoRef } from './repo-context.js';
import { visibleRepositoriesOf } from './repos.js';
import { loadVisibleUser } from './users.js';

async function starredRepositories(ctx: RouteContext, userId: number) {
  const { repository_ids: ids } = await ctx.deps.services.stars.ListStarredRepositories({ user_id: userId }, { caller: ctx.caller });
  return visibleRepositoriesOf(ctx, ids);
}

export const repoStarRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/stargazers', operationId: 'repoListStargazers', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.stars.ListStargazers({ ref: repoRef(ctx), page: { page, limit } }, repoCall(ctx));
      return ok(reply.users.map((u) => presentUser(u, ctx.caller, ctx.deps.config.rootUrl)), Number(reply.total));
    },
  },
  {
    method: 'GET', path: '/user/starred/:owner/:repo', operationId: 'userCurrentCheckStarring', access: 'signed', scopes: ['user', 'repository'],
    async handle(ctx) {
      await ctx.deps.services.stars.GetStar(repoRef(ctx), { caller: ctx.caller });
      return noContent();
    },
  },
  {
    method: 'PUT', path: '/user/starred/:owner/:repo', operationId: 'userCurrentPutStar', access: 'signed', scopes: ['user', 'repository'],
    async handle(ctx) {
      await ctx.deps.services.stars.SetStar({ ref: repoRef(ctx), star: true }, { caller: ctx.caller });
      return noContent();
    },
  },
  {
    method: 'DELETE', path: '/user/starred/:owner/:repo', operationId: 'userCurrentDeleteStar', access: 'signed', scopes: ['user', 'repository'],
    async handle(ctx) {
      await ctx.deps.services.stars.SetStar({ ref: repoRef(ctx), star: false }, { caller: ctx.caller });
      return noContent();
    },
  },
  {
    method: 'GET', path: '/user/starred', operationId: 'userCurrentListStarred', access: 'signed', scopes: ['user', 'repository'],
    handle: (ctx) => starredRepositories(ctx, ctx.caller.userId),
  },
  {
    method: 'GET', path: '/users/:username/starred', operationId: 'userListStarred', access: 'public', scopes: ['user', 'repository'],
    async handle(ctx) {
      const user = await loadVisibleUser(ctx, ctx.params.username);
      return starredRepositories(ctx, Number(user.id));
    },
  },
];
