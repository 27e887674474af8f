// /users/...: public profiles, user search and a user's access tokens
// (routers/api/v1/user/user.go, app.go). Token routes need HTTP Basic with a password
// and the user themselves or a site admin, as in Gitea.
import { invalid } from '@anvil/kit';
import type { identity } from '@anvil/proto';
import { ApiError } from '../http/errors.js';
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentAccessToken } from '@anvil/presenters/account.js';
import { isUserVisibleTo, presentUser } from '@anvil/presenters/user.js';

/** The user named in the path, or 404 when it does not exist or the caller may not see it. */
export async function loadVisibleUser(ctx: RouteContext, login: string): Promise<identity.User> {
  const user = await ctx.deps.services.identity.GetUser({ login }, { caller: ctx.caller });
  if (user.type === 'organization' || !isUserVisibleTo(user, ctx.caller)) throw new ApiError(404, 'The target couldn\'t be found.');
  return user;
}

async function loadSelfOrAdminTarget(ctx: RouteContext): Promise<identity.User> {
  const login = ctx.params.username;
  if (!ctx.caller.isAdmin && ctx.caller.login.toLowerCase() !== login.toLowerCase()) {
    throw new ApiError(403, 'doer should be the site admin or be same as the contextUser');
  }
  return ctx.deps.services.identity.GetUser({ login }, { caller: ctx.caller });
}

export const usersRoutes: Route[] = [
  {
    method: 'GET', path: '/users/search', operationId: 'userSearch', access: 'public', scopes: ['user'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const uid = Number(ctx.query.uid ?? 0);
      const result = await ctx.deps.services.identity.SearchUsers({
        q: typeof ctx.query.q === 'string' ? ctx.query.q : '',
        uid: Number.isSafeInteger(uid) && uid > 0 ? uid : 0,
        page: { page, limit },
      }, { caller: ctx.caller });
      const data = result.users.map((u) => presentUser(u, ctx.caller, ctx.deps.config.rootUrl));
      return ok({ ok: true, data }, result.total);
    },
  },
  {
    method: 'GET', path: '/users/:username', operationId: 'userGet', access: 'public', scopes: ['user'],
    async handle(ctx) {
      const user = await loadVisibleUser(ctx, ctx.params.username);
      return ok(presentUser(user, ctx.caller, ctx.deps.config.rootUrl));
    },
  },
  {
    method: 'GET', path: '/users/:username/tokens', operationId: 'userGetTokens', access: 'basic', scopes: ['user'],
    async handle(ctx) {
      const user = await loadSelfOrAdminTarget(ctx);
      const { page, limit } = ctx.page();
      const result = await ctx.deps.services.identity.ListAccessTokens({ user_id: user.id, page: { page, limit } }, { caller: ctx.caller });
      return ok(result.tokens.map(presentAccessToken), result.total);
    },
  },
  {
    method: 'POST', path: '/users/:username/tokens', operationId: 'userCreateToken', access: 'basic', scopes: ['user'],
    statusOverrides: { token_name_taken: 400, invalid_scope: 400, already_exists: 400 },
    async handle(ctx) {
      const user = await loadSelfOrAdminTarget(ctx);
      const body = ctx.body as { name: string; scopes?: string[] };
      if (!body.name) throw invalid('[name]: Required');
      const token = await ctx.deps.services.identity.CreateAccessToken(
        { user_id: user.id, name: body.name, scopes: body.scopes ?? [] }, { caller: ctx.caller });
      return created(presentAccessToken(token));
    },
  },
  {
    method: 'DELETE', path: '/users/:username/tokens/:token', operationId: 'userDeleteAccessToken', access: 'basic', scopes: ['user'],
    async handle(ctx) {
      const user = await loadSelfOrAdminTarget(ctx);
      await ctx.deps.services.identity.DeleteAccessToken({ user_id: user.id, id_or_name: ctx.params.token }, { caller: ctx.caller });
      // Revocation is immediate here; other replicas drop it on identity's event.
      ctx.deps.credentials.dropUser(user.id);
      return noContent();
    },
  },
];

