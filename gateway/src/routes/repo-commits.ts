// Commits of a repository (routers/api/v1/repo/commits.go, compare.go). The commit service
// resolves the repository and the caller's permission itself and answers with the users and
// verifications the presenter needs, so each request is one gRPC call.
import type { repository } from '@anvil/proto';
import { ok, plainText, type Reply, type Route, type RouteContext } from '../http/route.js';
import { presentCommit } from '@anvil/presenters/commits.js';
import { repoCall, repoRef, repoUrlsOf } from './repo-context.js';

/** Gitea's [git] COMMITS_RANGE_SIZE default: a page of commits holds at most this many. */
const COMMITS_RANGE_SIZE = 50;

const queryString = (ctx: RouteContext, name: string): string => {
  const value = ctx.query[name];
  return typeof value === 'string' ? value : Array.isArray(value) && typeof value[0] === 'string' ? value[0] : '';
};

/** Gitea's `FormString(x) == "" || FormBool(x)`: on unless given as something false. */
const onUnlessFalse = (ctx: RouteContext, name: string): boolean => {
  const value = queryString(ctx, name);
  return value === '' || ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value);
};

const detailsOf = (ctx: RouteContext): repository.CommitDetailsInput => ({
  stat: onUnlessFalse(ctx, 'stat'), verification: onUnlessFalse(ctx, 'verification'), files: onUnlessFalse(ctx, 'files'),
});

async function singleCommit(ctx: RouteContext, sha: string): Promise<Reply> {
  const commit = await ctx.deps.services.commits.GetCommit({ ref: repoRef(ctx), sha, details: detailsOf(ctx) }, repoCall(ctx));
  return ok(presentCommit(commit, repoUrlsOf(ctx, commit.repository), ctx.caller, ctx.deps.config.rootUrl));
}

export const repoCommitRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/commits', operationId: 'repoGetAllCommits', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const page = ctx.page();
      page.limit = Math.min(page.limit, COMMITS_RANGE_SIZE);
      const reply = await ctx.deps.services.commits.ListCommits({
        ref: repoRef(ctx), sha: queryString(ctx, 'sha'), path: queryString(ctx, 'path'), not: queryString(ctx, 'not'),
        since: queryString(ctx, 'since'), until: queryString(ctx, 'until'), page: page.page, limit: page.limit,
        details: detailsOf(ctx), summary_only: true,
      }, repoCall(ctx));
      const total = Number(reply.total);
      const pageCount = Math.ceil(total / page.limit);
      // Kept by Gitea for backwards compatibility (GetAllCommits).
      ctx.res.setHeader('X-Page', String(page.page));
      ctx.res.setHeader('X-PerPage', String(page.limit));
      ctx.res.setHeader('X-Total', String(total));
      ctx.res.setHeader('X-PageCount', String(pageCount));
      ctx.res.setHeader('X-HasMore', String(page.page < pageCount));
      ctx.res.setHeader('Access-Control-Expose-Headers', 'Link, X-Total-Count, X-Page, X-PerPage, X-Total, X-PageCount, X-HasMore');
      const urls = repoUrlsOf(ctx, reply.repository);
      return ok(reply.commits.map((c) => presentCommit(c, urls, ctx.caller, ctx.deps.config.rootUrl)), total);
    },
  },
  {
    // `/git/commits/{sha}.{diffType}` and `/git/commits/{sha}` share a segment: a sha or ref
    // ending in `.diff` or `.patch` is the raw diff, anything else with a dot (`v1.0`) a ref.
    method: 'GET', path: '/repos/:owner/:repo/git/commits/:sha.:diffType', operationId: 'repoDownloadCommitDiffOrPatch', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const whole = `${ctx.params.sha}.${ctx.params.diffType}`;
      const match = /^(.+)\.(diff|patch)$/.exec(whole);
      if (!match) return singleCommit(ctx, whole);
      const diff = await ctx.deps.services.commits.GetCommitDiff({ ref: repoRef(ctx), sha: match[1], diff_type: match[2] }, repoCall(ctx));
      return plainText(diff.text);
    },
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/git/commits/:sha', operationId: 'repoGetSingleCommit', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: (ctx) => singleCommit(ctx, ctx.params.sha),
  },
  {
    // Anvil's spec lists `GET /commits/{ref}` (a single commit, the ref validated) though
    // Gitea's document has no such operation: it answers what /git/commits/{sha} answers.
    // Registered after `/commits/{ref}/status(es)`, which would otherwise be read as refs.
    method: 'GET', path: '/repos/:owner/:repo/commits/*ref', operationId: 'repoGetSingleCommit', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: (ctx) => singleCommit(ctx, ctx.splat('ref')),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/compare/*basehead', operationId: 'repoCompareDiff', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      // Gitea's CompareDiff: `base...head`, else `base..head`, else the default branch against `head`.
      const basehead = ctx.splat('basehead');
      let [base, head] = ['', ''];
      const three = basehead.indexOf('...');
      const two = basehead.indexOf('..');
      if (three >= 0) [base, head] = [basehead.slice(0, three), basehead.slice(three + 3)];
      else if (two >= 0) [base, head] = [basehead.slice(0, two), basehead.slice(two + 2)];
      else head = basehead;
      const reply = await ctx.deps.services.commits.CompareCommits({
        ref: repoRef(ctx), base, head, details: { stat: true, verification: onUnlessFalse(ctx, 'verification'), files: onUnlessFalse(ctx, 'files') },
      }, repoCall(ctx));
      const urls = repoUrlsOf(ctx, reply.repository);
      return ok({ total_commits: reply.commits.length, commits: reply.commits.map((c) => presentCommit(c, urls, ctx.caller, ctx.deps.config.rootUrl)) });
    },
  },
];
