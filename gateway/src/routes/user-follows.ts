// Following (routers/api/v1/user/follower.go): whom a user follows and who follows them,
// whether one follows another (204/404), and following or unfollowing as the caller.
// Identity keeps the follows and both users' counts; the lists show only the accounts the
// caller may see (Gitea's isUserVisibleToViewerCond), and X-Total-Count counts those.
// An account named in the path may be a user or an organization (organizations can be
// followed, as in Gitea); one the caller may not see is 404, as on Anvil's other
// /users/{username} routes.
import type { identity } from '@anvil/proto';
import { ApiError } from '../http/errors.js';
import { noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { isUserVisibleTo, presentUser } from '@anvil/presenters/user.js';

const NOT_FOUND = 'The target couldn\'t be found.';

async function visibleAccount(ctx: RouteContext, login: string): Promise<identity.User> {
  const account = await ctx.deps.services.identity.GetUser({ login }, { caller: ctx.caller });
  if (!isUserVisibleTo(account, ctx.caller)) throw new ApiError(404, NOT_FOUND);
  return account;
}

type FollowList = 'ListFollowers' | 'ListFollowing';

async function listOf(ctx: RouteContext, list: FollowList, userId: number) {
  const { page, limit } = ctx.page();
  const reply = await ctx.deps.services.identity[list]({ user_id: userId, page: { page, limit } }, { caller: ctx.caller });
  return ok(reply.users.map((u) => presentUser(u, ctx.caller, ctx.deps.config.rootUrl)), Number(reply.total));
}

async function followingCheck(ctx: RouteContext, userId: number, followId: number) {
  const { following } = await ctx.deps.services.identity.IsFollowing({ user_id: userId, follow_id: followId }, { caller: ctx.caller });
  if (!following) throw new ApiError(404, NOT_FOUND);
  return noContent();
}

/** PUT and DELETE /user/following/{username}: both users' counts change. */
function changeRoute(method: 'PUT' | 'DELETE', operationId: string, change: 'FollowUser' | 'UnfollowUser'): Route {
  return {
    method, path: '/user/following/:username', operationId, access: 'signed', scopes: ['user'],
    async handle(ctx) {
      const target = await visibleAccount(ctx, ctx.params.username);
      await ctx.deps.services.identity[change]({ user_id: ctx.caller.userId, follow_id: target.id }, { caller: ctx.caller });
      // Cached credentials carry each user's counts (GET /user): forget both here at once;
      // other gateways do on the identity.user.updated that follows.
      ctx.deps.credentials.dropUser(ctx.caller.userId);
      ctx.deps.credentials.dropUser(Number(target.id));
      return noContent();
    },
  };
}

export const userFollowRoutes: Route[] = [
  {
    method: 'GET', path: '/user/followers', operationId: 'userCurrentListFollowers', access: 'signed', scopes: ['user'],
    handle: (ctx) => listOf(ctx, 'ListFollowers', ctx.caller.userId),
  },
  {
    method: 'GET', path: '/user/following', operationId: 'userCurrentListFollowing', access: 'signed', scopes: ['user'],
    handle: (ctx) => listOf(ctx, 'ListFollowing', ctx.caller.userId),
  },
  {
    method: 'GET', path: '/user/following/:username', operationId: 'userCurrentCheckFollowing', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      const target = await visibleAccount(ctx, ctx.params.username);
      return followingCheck(ctx, ctx.caller.userId, Number(target.id));
    },
  },
  changeRoute('PUT', 'userCurrentPutFollow', 'FollowUser'),
  changeRoute('DELETE', 'userCurrentDeleteFollow', 'UnfollowUser'),
  {
    method: 'GET', path: '/users/:username/followers', operationId: 'userListFollowers', access: 'public', scopes: ['user'],
    async handle(ctx) {
      const user = await visibleAccount(ctx, ctx.params.username);
      return listOf(ctx, 'ListFollowers', Number(user.id));
    },
  },
  {
    method: 'GET', path: '/users/:username/following', operationId: 'userListFollowing', access: 'public', scopes: ['user'],
    async handle(ctx) {
      const user = await visibleAccount(ctx, ctx.params.username);
      return listOf(ctx, 'ListFollowing', Number(user.id));
    },
  },
  {
    method: 'GET', path: '/users/:username/following/:target', operationId: 'userCheckFollowing', access: 'public', scopes: ['user'],
    async handle(ctx) {
      const [user, target] = await Promise.all([visibleAccount(ctx, ctx.params.username), visibleAccount(ctx, ctx.params.target)]);
      return followingCheck(ctx, Number(user.id), Number(target.id));
    },
  },
];
