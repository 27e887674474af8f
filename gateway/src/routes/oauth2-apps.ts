// /user/applications/oauth2: the signed-in user's OAuth2 applications
// (routers/api/v1/user/app.go; Gitea's /user group, so the `user` token scope).
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentOAuth2Application } from '@anvil/presenters/oauth2.js';

interface ApplicationBody {
  name?: string;
  redirect_uris?: string[];
  confidential_client?: boolean;
  skip_secondary_authorization?: boolean;
}

/** Gitea's PATCH replaces every field, like a create; absent fields read as their zero value. */
function applicationFields(body: ApplicationBody) {
  return {
    name: body.name ?? '',
    redirect_uris: body.redirect_uris ?? [],
    confidential_client: body.confidential_client ?? false,
    skip_secondary_authorization: body.skip_secondary_authorization ?? false,
  };
}

/** The path id as Gitea's ParamsInt64 reads it: anything but a number is 0, which matches nothing. */
function applicationId(ctx: RouteContext): number {
  const id = /^\d{1,15}$/.test(ctx.params.id) ? Number(ctx.params.id) : 0;
  return id;
}

/** Gitea answers a refused application with 400 (the contract declares no 422 here). */
const INPUT_REFUSED = { invalid_redirect_uri: 400, oauth2_application_name_required: 400 };

export const oauth2AppRoutes: Route[] = [
  {
    method: 'GET', path: '/user/applications/oauth2', operationId: 'userGetOauth2Application', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      const page = await ctx.deps.services.oauth2.ListOAuth2Applications({ user_id: ctx.caller.userId, page: ctx.page() }, { caller: ctx.caller });
      // Secrets are never listed (the service leaves them empty; Gitea blanks them too).
      return ok(page.applications.map((app) => presentOAuth2Application({ ...app, client_secret: '' })), page.total);
    },
  },
  {
    method: 'POST', path: '/user/applications/oauth2', operationId: 'userCreateOAuth2Application', access: 'signed', scopes: ['user'],
    statusOverrides: INPUT_REFUSED,
    async handle(ctx) {
      const app = await ctx.deps.services.oauth2.CreateOAuth2Application(
        { user_id: ctx.caller.userId, ...applicationFields(ctx.body as ApplicationBody) }, { caller: ctx.caller });
      return created(presentOAuth2Application(app));
    },
  },
  {
    method: 'GET', path: '/user/applications/oauth2/:id', operationId: 'userGetOAuth2Application', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      const app = await ctx.deps.services.oauth2.GetOAuth2Application({ user_id: ctx.caller.userId, id: applicationId(ctx) }, { caller: ctx.caller });
      return ok(presentOAuth2Application({ ...app, client_secret: '' }));
    },
  },
  {
    method: 'PATCH', path: '/user/applications/oauth2/:id', operationId: 'userUpdateOAuth2Application', access: 'signed', scopes: ['user'],
    statusOverrides: INPUT_REFUSED,
    async handle(ctx) {
      // Gitea regenerates the client secret on every update and shows the new one here.
      const app = await ctx.deps.services.oauth2.UpdateOAuth2Application(
        { user_id: ctx.caller.userId, id: applicationId(ctx), ...applicationFields(ctx.body as ApplicationBody) }, { caller: ctx.caller });
      return ok(presentOAuth2Application(app));
    },
  },
  {
    method: 'DELETE', path: '/user/applications/oauth2/:id', operationId: 'userDeleteOAuth2Application', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      const reply = await ctx.deps.services.oauth2.DeleteOAuth2Application({ user_id: ctx.caller.userId, id: applicationId(ctx) }, { caller: ctx.caller });
      // Tokens issued to the application stop working at once here; other replicas drop
      // them on identity's credential.revoked events.
      for (const userId of reply.revoked_user_ids) ctx.deps.credentials.dropUser(userId);
      return noContent();
    },
  },
];
