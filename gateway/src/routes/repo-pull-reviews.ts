// Reviews of pull requests (routers/api/v1/repo/pull_review.go). One collaboration call per
// request with the repository the gateway resolved; review comments are not built yet (a
// review's comments list is empty and creating one with comments is refused).
import { invalid } from '@anvil/kit';
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentReview } from '../presenters/review.js';
import { inRepository, type RepositoryCall } from './issue-scope.js';

const WRITE_STATUSES = { repo_archived: 423 };
const number = (value: string) => (/^\d{1,15}$/.test(value) ? Number(value) : 0);
const present = (ctx: RouteContext, call: RepositoryCall) => (r: Parameters<typeof presentReview>[0]) => presentReview(r, call.repo, ctx.caller, ctx.deps.config.rootUrl);
const ref = (ctx: RouteContext) => ({ pull_index: number(ctx.params.index), id: number(ctx.params.id) });

interface CreateReviewBody { event?: string; body?: string; commit_id?: string; comments?: unknown[] }

export const repoPullReviewRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/pulls/:index/reviews', operationId: 'repoListPullReviews', access: 'public', scopes: ['repository'],
    handle: inRepository('read', async (ctx, call) => {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.reviews.ListReviews({ pull_index: number(ctx.params.index), page: { page, limit } }, call.options);
      return ok(reply.reviews.map(present(ctx, call)), Number(reply.total));
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/pulls/:index/reviews', operationId: 'repoCreatePullReview', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    handle: inRepository('read', async (ctx, call) => {
      const body = ctx.body as CreateReviewBody;
      if (body.comments?.length) throw invalid('review comments are not supported yet', 'review_comments_unsupported');
      const review = await ctx.deps.services.reviews.CreateReview({
        pull_index: number(ctx.params.index), event: body.event ?? '', body: body.body ?? '', commit_id: body.commit_id ?? '',
      }, call.options);
      return ok(present(ctx, call)(review));
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/pulls/:index/reviews/:id', operationId: 'repoGetPullReview', access: 'public', scopes: ['repository'],
    handle: inRepository('read', async (ctx, call) => ok(present(ctx, call)(await ctx.deps.services.reviews.GetReview(ref(ctx), call.options)))),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/pulls/:index/reviews/:id', operationId: 'repoSubmitPullReview', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    handle: inRepository('read', async (ctx, call) => {
      const body = ctx.body as { event?: string; body?: string };
      return ok(present(ctx, call)(await ctx.deps.services.reviews.SubmitReview({ ...ref(ctx), event: body.event ?? '', body: body.body ?? '' }, call.options)));
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/pulls/:index/reviews/:id', operationId: 'repoDeletePullReview', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    handle: inRepository('read', async (ctx, call) => {
      await ctx.deps.services.reviews.DeleteReview(ref(ctx), call.options);
      return noContent();
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/pulls/:index/reviews/:id/comments', operationId: 'repoGetPullReviewComments', access: 'public', scopes: ['repository'],
    handle: inRepository('read', async (ctx, call) => {
      await ctx.deps.services.reviews.GetReview(ref(ctx), call.options);
      return ok([]);
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/pulls/:index/reviews/:id/dismissals', operationId: 'repoDismissPullReview', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    handle: inRepository('read', async (ctx, call) => {
      const body = ctx.body as { message?: string };
      return ok(present(ctx, call)(await ctx.deps.services.reviews.DismissReview({ ...ref(ctx), message: body.message ?? '', undo: false }, call.options)));
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/pulls/:index/reviews/:id/undismissals', operationId: 'repoUnDismissPullReview', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    handle: inRepository('read', async (ctx, call) => ok(present(ctx, call)(await ctx.deps.services.reviews.DismissReview({ ...ref(ctx), message: '', undo: true }, call.options)))),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/pulls/:index/requested_reviewers', operationId: 'repoCreatePullReviewRequests', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    handle: inRepository('read', async (ctx, call) => {
      const body = ctx.body as { reviewers?: string[]; team_reviewers?: string[] };
      if (body.team_reviewers?.length) throw invalid('team reviewers are not supported yet', 'team_reviewers_unsupported');
      const reply = await ctx.deps.services.reviews.RequestReviews({ pull_index: number(ctx.params.index), reviewers: body.reviewers ?? [] }, call.options);
      return created(reply.reviews.map(present(ctx, call)));
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/pulls/:index/requested_reviewers', operationId: 'repoDeletePullReviewRequests', access: 'signed', scopes: ['repository'], statusOverrides: WRITE_STATUSES,
    handle: inRepository('read', async (ctx, call) => {
      const body = ctx.body as { reviewers?: string[]; team_reviewers?: string[] };
      await ctx.deps.services.reviews.CancelReviewRequests({ pull_index: number(ctx.params.index), reviewers: body.reviewers ?? [] }, call.options);
      return noContent();
    }),
  },
];
