// Reactions on issues and comments (routers/api/v1/repo/issue_reaction.go): the kinds
// `[ui] REACTIONS` allows; POST answers 201 when it reacted, 200 when the caller already had.
import { noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentReaction } from '@anvil/presenters/issue.js';
import { inRepository } from './issue-scope.js';

// Gitea's mustNotBeArchived: every write in an archived repository is 423 Locked.
const WRITE_STATUSES = { repo_archived: 423 };

const idParam = (ctx: RouteContext, name: string) => (/^\d{1,15}$/.test(ctx.params[name] ?? '') ? Number(ctx.params[name]) : 0);
const contentOf = (ctx: RouteContext) => ((ctx.body as { content?: string }).content ?? '').trim();
const present = (ctx: RouteContext) => (reaction: Parameters<typeof presentReaction>[0]) => presentReaction(reaction, ctx.caller, ctx.deps.config.rootUrl);

export const repoReactionRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/issues/:index/reactions', operationId: 'issueGetIssueReactions', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.reactions.ListIssueReactions({ index: idParam(ctx, 'index'), page: { page, limit } }, call.options);
      return ok(reply.reactions.map(present(ctx)), Number(reply.total));
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/issues/:index/reactions', operationId: 'issuePostIssueReaction', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const result = await ctx.deps.services.reactions.ReactToIssue({ index: idParam(ctx, 'index'), content: contentOf(ctx) }, call.options);
      return { status: result.created ? 201 : 200, body: present(ctx)(result.reaction!) };
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/issues/:index/reactions', operationId: 'issueDeleteIssueReaction', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.reactions.UnreactToIssue({ index: idParam(ctx, 'index'), content: contentOf(ctx) }, call.options);
      return noContent();
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/issues/comments/:id/reactions', operationId: 'issueGetCommentReactions', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const reply = await ctx.deps.services.reactions.ListCommentReactions({ comment_id: idParam(ctx, 'id') }, call.options);
      return ok(reply.reactions.map(present(ctx)));
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/issues/comments/:id/reactions', operationId: 'issuePostCommentReaction', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const result = await ctx.deps.services.reactions.ReactToComment({ comment_id: idParam(ctx, 'id'), content: contentOf(ctx) }, call.options);
      return { status: result.created ? 201 : 200, body: present(ctx)(result.reaction!) };
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/issues/comments/:id/reactions', operationId: 'issueDeleteCommentReaction', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.reactions.UnreactToComment({ comment_id: idParam(ctx, 'id'), content: contentOf(ctx) }, call.options);
      return noContent();
    }),
  },
];
