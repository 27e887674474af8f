// Tracked times and stopwatches of an issue or pull request, and a repository's tracked
// times (routers/api/v1/repo/issue_tracked_time.go, issue_stopwatch.go). Pulls share the
// issue index, so every route takes either. Who may track where is collaboration's rule;
// the routes resolve the repository, read the query and present the replies.
import { forbidden } from '@anvil/kit';
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentTrackedTime } from '@anvil/presenters/tracked-time.js';
import { inRepository, type RepositoryCall } from './issue-scope.js';
import { timestampOf } from './repo-issues.js';

// Gitea's mustNotBeArchived: every write in an archived repository is 423 Locked.
const WRITE_STATUSES = { repo_archived: 423 };

const idParam = (ctx: RouteContext, name: string) => (/^\d{1,15}$/.test(ctx.params[name] ?? '') ? Number(ctx.params[name]) : 0);
const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The list filters Gitea reads: user, since, before (RFC 3339, else 422), page and limit. */
function filterOf(ctx: RouteContext, index: number, user = text(ctx.query.user)) {
  const { page, limit } = ctx.page();
  return { index, user, since: timestampOf(ctx.query.since, 'since'), before: timestampOf(ctx.query.before, 'before'), page: { page, limit } };
}

const presentAll = (ctx: RouteContext, call: RepositoryCall) => (t: Parameters<typeof presentTrackedTime>[0]) =>
  presentTrackedTime(t, call.repo, ctx.caller, ctx.deps.config.rootUrl);

export const repoTrackedTimeRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/issues/:index/times', operationId: 'issueTrackedTimes', access: 'signed', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const reply = await ctx.deps.services.trackedTimes.ListTrackedTimes(filterOf(ctx, idParam(ctx, 'index')), call.options);
      return ok(reply.times.map(presentAll(ctx, call)), Number(reply.total));
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/issues/:index/times', operationId: 'issueAddTime', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as { time?: number; created?: string; user_name?: string };
      const time = await ctx.deps.services.trackedTimes.AddTrackedTime({
        index: idParam(ctx, 'index'), time: Number(body.time ?? 0), created_at: timestampOf(body.created, 'created'), user_name: text(body.user_name),
      }, call.options);
      return ok(presentAll(ctx, call)(time));
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/issues/:index/times', operationId: 'issueResetTime', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.trackedTimes.ResetTrackedTimes({ index: idParam(ctx, 'index') }, call.options);
      return noContent();
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/issues/:index/times/:id', operationId: 'issueDeleteTime', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.trackedTimes.DeleteTrackedTime({ index: idParam(ctx, 'index'), id: idParam(ctx, 'id') }, call.options);
      return noContent();
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/issues/:index/stopwatch/start', operationId: 'issueStartStopWatch', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write', // Gitea's prepareIssueForStopwatch: CanWriteIssuesOrPulls
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.trackedTimes.StartStopwatch({ index: idParam(ctx, 'index') }, call.options);
      return created(undefined);
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/issues/:index/stopwatch/stop', operationId: 'issueStopStopWatch', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write', // Gitea's prepareIssueForStopwatch: CanWriteIssuesOrPulls
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.trackedTimes.StopStopwatch({ index: idParam(ctx, 'index') }, call.options);
      return created(undefined);
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/issues/:index/stopwatch/delete', operationId: 'issueDeleteStopWatch', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write', // Gitea's prepareIssueForStopwatch: CanWriteIssuesOrPulls
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.trackedTimes.CancelStopwatch({ index: idParam(ctx, 'index') }, call.options);
      return noContent();
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/times', operationId: 'repoTrackedTimes', access: 'signed', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const reply = await ctx.deps.services.trackedTimes.ListTrackedTimes(filterOf(ctx, 0), call.options);
      return ok(reply.times.map(presentAll(ctx, call)), Number(reply.total));
    }),
  },
  {
    // Deprecated in Gitea for GET /repos/{owner}/{repo}/times?user=; one's own, or anyone's for admins.
    method: 'GET', path: '/repos/:owner/:repo/times/:user', operationId: 'userTrackedTimes', access: 'signed', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const login = ctx.params.user ?? '';
      const isAdmin = ['admin', 'owner'].includes(call.access.permission) || ctx.caller.isAdmin;
      if (!isAdmin && login.toLowerCase() !== ctx.caller.login.toLowerCase()) throw forbidden('query by user not allowed; not enough rights', 'time_query_denied');
      const filter = { ...filterOf(ctx, 0, login), page: { page: 1, limit: 1000 } };
      const reply = await ctx.deps.services.trackedTimes.ListTrackedTimes(filter, call.options);
      return ok(reply.times.map(presentAll(ctx, call)));
    }),
  },
];
