// /admin/users: site administrators manage accounts (routers/api/v1/admin/user.go).
import { invalid } from '@anvil/kit';
import type { identity } from '@anvil/proto';
import { ApiError } from '../http/errors.js';
import { created, noContent, ok, type Route } from '../http/route.js';
import { presentUser } from '@anvil/presenters/user.js';
import { presentFields, timestampOf, visibilityOf } from './convert.js';
import { refuseWhileOwningRepositories } from './ownership.js';

const EDITABLE = [
  'email', 'password', 'full_name', 'must_change_password', 'admin', 'active', 'prohibit_login', 'restricted',
  'location', 'website', 'description', 'max_repo_creation', 'allow_create_organization', 'allow_git_hook',
  'allow_import_local', 'login_name', 'source_id',
] as const;

export const adminRoutes: Route[] = [
  {
    method: 'GET', path: '/admin/users', operationId: 'adminSearchUsers', access: 'admin', scopes: ['admin'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const sourceId = Number(ctx.query.source_id ?? 0);
      const result = await ctx.deps.services.identity.SearchUsers({
        q: typeof ctx.query.q === 'string' ? ctx.query.q : '',
        page: { page, limit },
        include_all: true,
        login_name: typeof ctx.query.login_name === 'string' ? ctx.query.login_name : '',
        source_id: Number.isSafeInteger(sourceId) ? sourceId : 0,
        sort: typeof ctx.query.sort === 'string' ? ctx.query.sort : '',
      }, { caller: ctx.caller });
      return ok(result.users.map((u) => presentUser(u, ctx.caller, ctx.deps.config.rootUrl)), result.total);
    },
  },
  {
    method: 'POST', path: '/admin/users', operationId: 'adminCreateUser', access: 'admin', scopes: ['admin'],
    statusOverrides: { already_exists: 422 },
    async handle(ctx) {
      const body = ctx.body as Record<string, unknown>;
      const user = await ctx.deps.services.identity.CreateUser({
        login: String(body.username ?? ''),
        email: String(body.email ?? ''),
        password: typeof body.password === 'string' ? body.password : '',
        full_name: typeof body.full_name === 'string' ? body.full_name : '',
        // Gitea forces a password change for admin-created users unless told otherwise.
        must_change_password: body.must_change_password === undefined ? true : Boolean(body.must_change_password),
        restricted: Boolean(body.restricted),
        visibility: visibilityOf(body.visibility),
        login_name: typeof body.login_name === 'string' ? body.login_name : '',
        source_id: Number(body.source_id ?? 0),
        created_at: timestampOf(body.created_at),
      }, { caller: ctx.caller });
      return created(presentUser(user, ctx.caller, ctx.deps.config.rootUrl));
    },
  },
  {
    method: 'PATCH', path: '/admin/users/:username', operationId: 'adminEditUser', access: 'admin', scopes: ['admin'],
    statusOverrides: { already_exists: 400 },
    async handle(ctx) {
      const body = ctx.body as Record<string, unknown>;
      const request: identity.EditUserRequestInput = {
        login: ctx.params.username,
        ...presentFields<identity.EditUserRequestInput>(body, EDITABLE),
      };
      if (body.email === '') throw invalid('[email]: Email is not a valid email address');
      const visibility = visibilityOf(body.visibility);
      if (visibility) request.visibility = visibility;
      const user = await ctx.deps.services.identity.EditUser(request, { caller: ctx.caller });
      ctx.deps.credentials.dropUser(user.id);
      return ok(presentUser(user, ctx.caller, ctx.deps.config.rootUrl));
    },
  },
  {
    method: 'POST', path: '/admin/users/:username/rename', operationId: 'adminRenameUser', access: 'admin', scopes: ['admin'],
    // Gitea: a taken name is a validation error (422), like a malformed or reserved one.
    statusOverrides: { already_exists: 422 },
    async handle(ctx) {
      const body = ctx.body as { new_username?: unknown };
      const newLogin = typeof body.new_username === 'string' ? body.new_username : '';
      if (!newLogin) throw invalid('[new_name]: Required');
      const user = await ctx.deps.services.identity.RenameUser({ login: ctx.params.username, new_login: newLogin }, { caller: ctx.caller });
      // Basic credentials cached under the old login must not keep working.
      ctx.deps.credentials.dropUser(user.id);
      return noContent();
    },
  },
  {
    method: 'DELETE', path: '/admin/users/:username', operationId: 'adminDeleteUser', access: 'admin', scopes: ['admin'],
    async handle(ctx) {
      if (ctx.caller.login.toLowerCase() === ctx.params.username.toLowerCase()) {
        throw new ApiError(422, 'you cannot delete yourself');
      }
      const user = await ctx.deps.services.identity.GetUser({ login: ctx.params.username }, { caller: ctx.caller });
      const purge = ctx.query.purge === 'true';
      // Without purge a user who owns repositories is kept (Gitea's ErrUserOwnRepos, 422);
      // with it, repository deletes their repositories when identity announces the deletion.
      if (!purge) await refuseWhileOwningRepositories(ctx, { id: Number(user.id) });
      await ctx.deps.services.identity.DeleteUser({ login: user.login, purge }, { caller: ctx.caller });
      ctx.deps.credentials.dropUser(user.id);
      return noContent();
    },
  },
];
