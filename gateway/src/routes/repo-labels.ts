// Labels of a repository and the labels on an issue (routers/api/v1/repo/label.go and
// issue_label.go). One gRPC call per request; the repository travels with it resolved.
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentLabel } from '@anvil/presenters/issue.js';
import { inRepository, type RepositoryCall } from './issue-scope.js';

// Gitea's mustNotBeArchived: every write in an archived repository is 423 Locked.
const WRITE_STATUSES = { repo_archived: 423 };

/** A numeric path parameter; anything else names nothing (0). */
const idParam = (ctx: RouteContext, name: string) => (/^\d{1,15}$/.test(ctx.params[name] ?? '') ? Number(ctx.params[name]) : 0);

const present = (ctx: RouteContext, call: RepositoryCall) => (label: Parameters<typeof presentLabel>[0]) => presentLabel(label, ctx.deps.config.rootUrl, call.repo);

interface LabelBody { name?: string; color?: string; description?: string; exclusive?: boolean; is_archived?: boolean }

/** IssueLabelsOption.labels: ids or names, as strings. */
const labelTokens = (ctx: RouteContext) => ((ctx.body as { labels?: unknown[] }).labels ?? []).map((l) => String(l));

export const repoLabelRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/labels', operationId: 'issueListLabels', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.labels.ListLabels({ page: { page, limit } }, call.options);
      return ok(reply.labels.map(present(ctx, call)), Number(reply.total));
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/labels', operationId: 'issueCreateLabel', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as LabelBody;
      const label = await ctx.deps.services.labels.CreateLabel({
        name: body.name ?? '', color: body.color ?? '', description: body.description ?? '', exclusive: body.exclusive ?? false, is_archived: body.is_archived ?? false,
      }, call.options);
      return created(present(ctx, call)(label));
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/labels/:id', operationId: 'issueGetLabel', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => ok(present(ctx, call)(await ctx.deps.services.labels.GetLabel({ id: idParam(ctx, 'id') }, call.options)))),
  },
  {
    method: 'PATCH', path: '/repos/:owner/:repo/labels/:id', operationId: 'issueEditLabel', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as LabelBody;
      const label = await ctx.deps.services.labels.EditLabel({
        id: idParam(ctx, 'id'), name: body.name, color: body.color, description: body.description, exclusive: body.exclusive, is_archived: body.is_archived,
      }, call.options);
      return ok(present(ctx, call)(label));
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/labels/:id', operationId: 'issueDeleteLabel', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write',
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.labels.DeleteLabel({ id: idParam(ctx, 'id') }, call.options);
      return noContent();
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/issues/:index/labels', operationId: 'issueGetLabels', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const reply = await ctx.deps.services.labels.ListIssueLabels({ index: idParam(ctx, 'index') }, call.options);
      return ok(reply.labels.map(present(ctx, call)));
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/issues/:index/labels', operationId: 'issueAddLabel', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write', // Gitea's CanWriteIssuesOrPulls
    handle: inRepository(async (ctx, call) => {
      const reply = await ctx.deps.services.labels.AddIssueLabels({ index: idParam(ctx, 'index'), labels: labelTokens(ctx) }, call.options);
      return ok(reply.labels.map(present(ctx, call)));
    }),
  },
  {
    method: 'PUT', path: '/repos/:owner/:repo/issues/:index/labels', operationId: 'issueReplaceLabels', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write', // Gitea's CanWriteIssuesOrPulls
    handle: inRepository(async (ctx, call) => {
      const reply = await ctx.deps.services.labels.ReplaceIssueLabels({ index: idParam(ctx, 'index'), labels: labelTokens(ctx) }, call.options);
      return ok(reply.labels.map(present(ctx, call)));
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/issues/:index/labels', operationId: 'issueClearLabels', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write', // Gitea's CanWriteIssuesOrPulls
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.labels.ClearIssueLabels({ index: idParam(ctx, 'index') }, call.options);
      return noContent();
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/issues/:index/labels/:id', operationId: 'issueRemoveLabel', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write', // Gitea's CanWriteIssuesOrPulls
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.labels.RemoveIssueLabel({ index: idParam(ctx, 'index'), label_id: idParam(ctx, 'id') }, call.options);
      return noContent();
    }),
  },
];
