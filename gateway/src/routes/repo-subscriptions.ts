// Issue subscriptions (routers/api/v1/repo/issue_subscription.go): who watches an issue,
// whether the caller does, and (un)subscribing oneself; PUT/DELETE answer 200 when nothing
// changed and 201 when it did, as Gitea does.
import { ok, type Route, type RouteContext } from '../http/route.js';
import { presentIssueUser } from '@anvil/presenters/issue.js';
import { repoUrls } from '@anvil/presenters/repo-urls.js';
import { inRepository } from './issue-scope.js';

const indexOf = (ctx: RouteContext) => (/^\d{1,15}$/.test(ctx.params.index ?? '') ? Number(ctx.params.index) : 0);

function setSubscription(watch: boolean) {
  return inRepository(async (ctx, call) => {
    const reply = await ctx.deps.services.subscriptions.SetSubscription({ index: indexOf(ctx), login: ctx.params.user, watch }, call.options);
    return { status: reply.changed ? 201 : 200 };
  });
}

export const repoSubscriptionRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/issues/:index/subscriptions', operationId: 'issueSubscriptions', access: 'signed', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.subscriptions.ListSubscribers({ index: indexOf(ctx), page: { page, limit } }, call.options);
      return ok(reply.users.map((u) => presentIssueUser(u, ctx.caller, ctx.deps.config.rootUrl)), Number(reply.total));
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/issues/:index/subscriptions/check', operationId: 'issueCheckSubscription', access: 'signed', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const index = indexOf(ctx);
      const { subscribed } = await ctx.deps.services.subscriptions.CheckSubscription({ index }, call.options);
      const urls = repoUrls(ctx.deps.config.rootUrl, call.repo.owner, call.repo.name);
      // Gitea answers the Unix epoch for created_at and no reason.
      return ok({ subscribed, ignored: !subscribed, reason: null, created_at: '1970-01-01T00:00:00Z', url: `${urls.api}/issues/${index}/subscriptions`, repository_url: urls.api });
    }),
  },
  {
    method: 'PUT', path: '/repos/:owner/:repo/issues/:index/subscriptions/:user', operationId: 'issueAddSubscription', access: 'signed', scopes: ['issue'],
    repoAccess: 'read',
    handle: setSubscription(true),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/issues/:index/subscriptions/:user', operationId: 'issueDeleteSubscription', access: 'signed', scopes: ['issue'],
    repoAccess: 'read',
    handle: setSubscription(false),
  },
];
