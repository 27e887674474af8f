// Commit statuses (routers/api/v1/repo/status.go): set a status on a commit, list a commit's
// statuses by sha or by ref, and its combined status. The commit-status service resolves the
// repository and the caller's permission itself, so each request is one gRPC call.
import { created, ok, type Route, type RouteContext } from '../http/route.js';
import { presentCombinedStatus, presentCommitStatus, repoApiUrl } from '@anvil/presenters/commit-status.js';
import { repoCall, repoRef } from './repo-context.js';

const queryString = (ctx: RouteContext, name: string) => (typeof ctx.query[name] === 'string' ? (ctx.query[name] as string).trim() : '');

/** The repository's stored owner and name (as Gitea's URLs use), else the request's. */
const apiUrlOf = (ctx: RouteContext, stored?: { owner: string; name: string } | null) =>
  repoApiUrl(ctx.deps.config.rootUrl, { owner: stored?.owner || ctx.params.owner, name: stored?.name || ctx.params.repo });

async function listStatuses(ctx: RouteContext, revision: string, byRef: boolean) {
  const { page, limit } = ctx.page();
  const reply = await ctx.deps.services.commitStatuses.ListCommitStatuses({
    ref: repoRef(ctx), sha: revision, by_ref: byRef, sort: queryString(ctx, 'sort'), state: queryString(ctx, 'state'), page: { page, limit },
  }, repoCall(ctx));
  const repoUrl = apiUrlOf(ctx, reply.repository);
  return ok(reply.statuses.map((s) => presentCommitStatus(s, repoUrl, ctx.deps.config.rootUrl)), reply.total);
}

export const repoStatusRoutes: Route[] = [
  {
    method: 'POST', path: '/repos/:owner/:repo/statuses/:sha', operationId: 'repoCreateStatus', access: 'signed', scopes: ['repository'],
    repoAccess: 'write',
    async handle(ctx) {
      const body = ctx.body as { state?: string; target_url?: string; description?: string; context?: string };
      const status = await ctx.deps.services.commitStatuses.CreateCommitStatus({
        ref: repoRef(ctx), sha: ctx.params.sha, state: body.state ?? '',
        target_url: body.target_url ?? '', description: body.description ?? '', context: body.context ?? '',
      }, repoCall(ctx));
      return created(presentCommitStatus(status, apiUrlOf(ctx, status.repository), ctx.deps.config.rootUrl));
    },
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/statuses/:sha', operationId: 'repoListStatuses', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: (ctx) => listStatuses(ctx, ctx.params.sha, false),
  },
  {
    // A ref holding "/" (feature/x) is sent encoded (feature%2Fx), as in Gitea.
    method: 'GET', path: '/repos/:owner/:repo/commits/:ref/statuses', operationId: 'repoListStatusesByRef', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: (ctx) => listStatuses(ctx, ctx.params.ref, true),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/commits/:ref/status', operationId: 'repoGetCombinedStatusByRef', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const combined = await ctx.deps.services.commitStatuses.GetCombinedStatus({ ref: repoRef(ctx), revision: ctx.params.ref, page: { page, limit } }, repoCall(ctx));
      return ok(presentCombinedStatus(combined, ctx.caller, ctx.deps.config.rootUrl), Number(combined.total));
    },
  },
];
