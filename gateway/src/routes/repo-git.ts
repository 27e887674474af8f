// Git objects of a repository (routers/api/v1/repo/blob.go, tree.go, git_ref.go): blobs by
// id, trees by id or ref name, refs by prefix. The git object service resolves the
// repository and the caller's permission itself, so each request is one gRPC call.
// (Annotated tags, /git/tags/{sha}, live with the tag routes.)
import { ok, type Route } from '../http/route.js';
import { presentBlob, presentRef, presentTree } from '@anvil/presenters/git-objects.js';
import { repoCall, repoRef, repoUrlsOf } from './repo-context.js';

/** Go's strconv.ParseBool as Gitea's ctx.FormBool reads it; anything else is false. */
function formBool(value: unknown): boolean {
  return typeof value === 'string' && ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
}

/** Gitea's ctx.FormInt: an integer, or 0. */
function formInt(value: unknown): number {
  const n = typeof value === 'string' && /^[+-]?\d+$/.test(value) ? Number(value) : 0;
  return Number.isSafeInteger(n) ? Math.max(Math.min(n, 2 ** 31 - 1), -(2 ** 31)) : 0;
}

export const repoGitRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/git/blobs/:sha', operationId: 'GetBlob', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const blob = await ctx.deps.services.gitObjects.GetBlob({
        ref: repoRef(ctx), sha: ctx.params.sha, max_content_size: ctx.deps.config.settings.api.DEFAULT_MAX_BLOB_SIZE,
      }, repoCall(ctx));
      return ok(presentBlob(blob, repoUrlsOf(ctx, blob.repository)));
    },
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/git/trees/:sha', operationId: 'GetTree', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const tree = await ctx.deps.services.gitObjects.GetTree({
        ref: repoRef(ctx), sha: ctx.params.sha, recursive: formBool(ctx.query.recursive),
        page: formInt(ctx.query.page), per_page: formInt(ctx.query.per_page),
        max_per_page: ctx.deps.config.settings.api.DEFAULT_GIT_TREES_PER_PAGE,
      }, repoCall(ctx));
      return ok(presentTree(tree, repoUrlsOf(ctx, tree.repository)));
    },
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/git/refs', operationId: 'repoListAllGitRefs', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const list = await ctx.deps.services.gitObjects.ListRefs({ ref: repoRef(ctx), prefix: '' }, repoCall(ctx));
      const urls = repoUrlsOf(ctx, list.repository);
      return ok(list.refs.map((r) => presentRef(r, urls)));
    },
  },
  {
    // `/git/refs/heads` lists every branch: the path is a prefix of the full ref name.
    method: 'GET', path: '/repos/:owner/:repo/git/refs/*ref', operationId: 'repoListGitRefs', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const list = await ctx.deps.services.gitObjects.ListRefs({ ref: repoRef(ctx), prefix: `refs/${ctx.splat('ref')}` }, repoCall(ctx));
      const urls = repoUrlsOf(ctx, list.repository);
      return ok(list.refs.map((r) => presentRef(r, urls)));
    },
  },
];
