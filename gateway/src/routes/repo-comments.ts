// Comments on issues (routers/api/v1/repo/issue_comment.go). Registered before the issue
// routes so `/issues/comments` is never taken for an issue numbered "comments".
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentComment, presentTimelineComment } from '@anvil/presenters/issue.js';
import { inRepository, type RepositoryCall } from './issue-scope.js';
import { timestampOf } from './repo-issues.js';

// Gitea's mustNotBeArchived: every write in an archived repository is 423 Locked.
const WRITE_STATUSES = { repo_archived: 423 };

const idParam = (ctx: RouteContext, name: string) => (/^\d{1,15}$/.test(ctx.params[name] ?? '') ? Number(ctx.params[name]) : 0);
const present = (ctx: RouteContext, call: RepositoryCall) => (comment: Parameters<typeof presentComment>[0]) =>
  presentComment(comment, call.repo, ctx.caller, ctx.deps.config.rootUrl);
const window = (ctx: RouteContext) => ({ since: timestampOf(ctx.query.since, 'since'), before: timestampOf(ctx.query.before, 'before') });
const bodyOf = (ctx: RouteContext) => (ctx.body as { body?: string }).body ?? '';

export const repoCommentRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/issues/comments', operationId: 'issueGetRepoComments', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.comments.ListRepoComments({ ...window(ctx), page: { page, limit } }, call.options);
      return ok(reply.comments.map(present(ctx, call)), Number(reply.total));
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/issues/comments/:id', operationId: 'issueGetComment', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const comment = await ctx.deps.services.comments.GetComment({ id: idParam(ctx, 'id') }, call.options);
      // A timeline entry is no comment: Gitea answers 204.
      return comment.type === 'comment' ? ok(present(ctx, call)(comment)) : noContent();
    }),
  },
  {
    method: 'PATCH', path: '/repos/:owner/:repo/issues/comments/:id', operationId: 'issueEditComment', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const comment = await ctx.deps.services.comments.EditComment({ id: idParam(ctx, 'id'), body: bodyOf(ctx) }, call.options);
      return comment.type === 'comment' ? ok(present(ctx, call)(comment)) : noContent();
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/issues/comments/:id', operationId: 'issueDeleteComment', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.comments.DeleteComment({ id: idParam(ctx, 'id') }, call.options);
      return noContent();
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/issues/:index/comments', operationId: 'issueGetComments', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const reply = await ctx.deps.services.comments.ListIssueComments({ index: idParam(ctx, 'index'), ...window(ctx) }, call.options);
      return ok(reply.comments.map(present(ctx, call)));
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/issues/:index/timeline', operationId: 'issueGetCommentsAndTimeline', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.comments.ListTimeline({ index: idParam(ctx, 'index'), ...window(ctx), page: { page, limit } }, call.options);
      return ok(reply.comments.map((c) => presentTimelineComment(c, call.repo, ctx.caller, ctx.deps.config.rootUrl)), Number(reply.total));
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/issues/:index/comments', operationId: 'issueCreateComment', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => created(present(ctx, call)(await ctx.deps.services.comments.CreateComment({ index: idParam(ctx, 'index'), body: bodyOf(ctx) }, call.options)))),
  },
];
