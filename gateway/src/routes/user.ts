// /user...: the signed-in user and their e-mail addresses (routers/api/v1/user/email.go).
import { invalid } from '@anvil/kit';
import { created, noContent, ok, type Route } from '../http/route.js';
import { presentEmail } from '@anvil/presenters/account.js';
import { presentUser } from '@anvil/presenters/user.js';

function emailsOf(body: unknown): string[] {
  const emails = (body as { emails?: unknown }).emails;
  if (!Array.isArray(emails) || emails.length === 0) throw invalid('[emails]: Required');
  return emails.map(String);
}

export const userRoutes: Route[] = [
  {
    method: 'GET', path: '/user', operationId: 'userGetCurrent', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      const user = ctx.auth.user && ctx.auth.user.id === ctx.caller.userId
        ? ctx.auth.user
        : await ctx.deps.services.identity.GetUser({ id: ctx.caller.userId }, { caller: ctx.caller });
      return ok(presentUser(user, ctx.caller, ctx.deps.config.rootUrl));
    },
  },
  {
    method: 'GET', path: '/user/emails', operationId: 'userListEmails', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      const list = await ctx.deps.services.identity.ListEmails({ user_id: ctx.caller.userId }, { caller: ctx.caller });
      return ok(list.emails.map(presentEmail));
    },
  },
  {
    method: 'POST', path: '/user/emails', operationId: 'userAddEmail', access: 'signed', scopes: ['user'],
    statusOverrides: { already_exists: 422 },
    async handle(ctx) {
      const list = await ctx.deps.services.identity.AddEmails({ user_id: ctx.caller.userId, emails: emailsOf(ctx.body) }, { caller: ctx.caller });
      return created(list.emails.map(presentEmail));
    },
  },
  {
    method: 'DELETE', path: '/user/emails', operationId: 'userDeleteEmail', access: 'signed', scopes: ['user'],
    async handle(ctx) {
      await ctx.deps.services.identity.DeleteEmails({ user_id: ctx.caller.userId, emails: emailsOf(ctx.body) }, { caller: ctx.caller });
      return noContent();
    },
  },
];
