// Repository watching (routers/api/v1/repo/subscriber.go, user/watch.go): who watches a
// repository, whether the caller does (404 when not), (un)watching it, and the repositories
// a user watches — their ids from collaboration, then one repository call that keeps what
// the caller may see and pages them.
import type { RouteContext, Route } from '../http/route.js';
import { noContent, ok } from '../http/route.js';
import { presentIssueUser } from '@anvil/presenters/issue.js';
import { repoUrls } from '@anvil/presenters/repo-urls.js';
import { formatTime } from '@anvil/presenters/time.js';
import { inRepository, type RepositoryCall } from './issue-scope.js';
import { visibleRepositoriesOf } from './repos.js';
import { loadVisibleUser } from './users.js';

/** Gitea's WatchInfo; like Gitea, created_at is the repository's creation time. */
function watchInfo(ctx: RouteContext, call: RepositoryCall) {
  const urls = repoUrls(ctx.deps.config.rootUrl, call.repo.owner, call.repo.name);
  return {
    subscribed: true, ignored: false, reason: null,
    created_at: formatTime(call.access.repository?.created_at), url: `${urls.api}/subscription`, repository_url: urls.api,
  };
}

async function watchedRepositories(ctx: RouteContext, userId: number) {
  const { repository_ids: ids } = await ctx.deps.services.watches.ListWatchedRepositories({ user_id: userId }, { caller: ctx.caller });
  return visibleRepositoriesOf(ctx, ids);
}

export const repoWatchRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/subscribers', operationId: 'repoListSubscribers', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const reply = await ctx.deps.services.watches.ListWatchers(ctx.page(), call.options);
      return ok(reply.users.map((u) => presentIssueUser(u, ctx.caller, ctx.deps.config.rootUrl)), Number(reply.total));
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/subscription', operationId: 'userCurrentCheckSubscription', access: 'signed', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.watches.GetWatch({}, call.options);
      return ok(watchInfo(ctx, call));
    }),
  },
  {
    method: 'PUT', path: '/repos/:owner/:repo/subscription', operationId: 'userCurrentPutSubscription', access: 'signed', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.watches.SetWatch({ watch: true }, call.options);
      return ok(watchInfo(ctx, call));
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/subscription', operationId: 'userCurrentDeleteSubscription', access: 'signed', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.watches.SetWatch({ watch: false }, call.options);
      return noContent();
    }),
  },
  {
    method: 'GET', path: '/user/subscriptions', operationId: 'userCurrentListSubscriptions', access: 'signed', scopes: ['user', 'repository'],
    handle: (ctx) => watchedRepositories(ctx, ctx.caller.userId),
  },
  {
    method: 'GET', path: '/users/:username/subscriptions', operationId: 'userListSubscriptions', access: 'public', scopes: ['user', 'repository'],
    async handle(ctx) {
      const user = await loadVisibleUser(ctx, ctx.params.username);
      return watchedRepositories(ctx, Number(user.id));
    },
  },
];
