// Issues of a repository (routers/api/v1/repo/issue.go): list with Gitea's filters, open,
// read, edit, delete, and the due date. One gRPC call per request; collaboration receives
// the repository and the caller's permission with it (issue-scope.ts).
import { invalid } from '@anvil/kit';
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { issuesOf, presentIssue, type ShownUsers } from '@anvil/presenters/issue.js';
import { formatTime } from '@anvil/presenters/time.js';
import { assignableFor } from './assignees.js';
import { inRepository, type RepositoryCall } from './issue-scope.js';

// Gitea's mustNotBeArchived: every issue write in an archived repository is 423 Locked.
export const WRITE_STATUSES = { repo_archived: 423 };
// Gitea's ErrDependenciesLeft when closing an issue that depends on open ones; an assignee
// without access is a permission error on edit (ErrUserDoesNotHaveAccessToRepo), 422 on create.
const EDIT_STATUSES = { ...WRITE_STATUSES, dependencies_left: 412, assignee_no_access: 403 };

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** An RFC 3339 time as a Timestamp message; a malformed one is 422 (Gitea's GetQueryBeforeSince). */
export function timestampOf(value: unknown, field: string): { seconds: number; nanos: number } | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const ms = typeof value === 'string' && RFC3339.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw invalid(`${field}: parsing time "${String(value)}" as RFC 3339 failed`, 'invalid_time');
  return { seconds: Math.floor(ms / 1000), nanos: (((ms % 1000) + 1000) % 1000) * 1e6 };
}

const text = (ctx: RouteContext, name: string) => (typeof ctx.query[name] === 'string' ? (ctx.query[name] as string) : '');
const list = (ctx: RouteContext, name: string) => text(ctx, name).split(',').map((s) => s.trim()).filter(Boolean);

/** The `{index}` of the path; anything but a positive number names no issue. */
export function indexOf(ctx: RouteContext): number {
  const index = /^\d{1,15}$/.test(ctx.params.index) ? Number(ctx.params.index) : 0;
  return index;
}

// `shown`: one per reply, so a page presents each of its users once.
const present = (ctx: RouteContext, call: RepositoryCall, shown: ShownUsers = new Map()) => (issue: Parameters<typeof presentIssue>[0]) =>
  presentIssue(issue, call.repo, ctx.caller, ctx.deps.config.rootUrl, shown);

interface CreateIssueBody { title?: string; body?: string; ref?: string; assignee?: string; assignees?: string[]; labels?: number[]; milestone?: number; due_date?: string; closed?: boolean }
interface EditIssueBody { title?: string; body?: string; ref?: string; state?: string; assignee?: string; assignees?: string[]; milestone?: number; due_date?: string; unset_due_date?: boolean }

export const repoIssueRoutes: Route[] = [
  {
    // Before `/issues/:index`, so "pinned" is never taken for an issue number.
    method: 'GET', path: '/repos/:owner/:repo/issues/pinned', operationId: 'repoListPinnedIssues', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const reply = await ctx.deps.services.issues.ListPinnedIssues({}, call.options);
      return ok(issuesOf(reply).map(present(ctx, call)));
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/issues', operationId: 'issueListIssues', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.issues.ListIssues({
        state: text(ctx, 'state'), type: text(ctx, 'type'), labels: list(ctx, 'labels'), milestones: list(ctx, 'milestones'), q: text(ctx, 'q'),
        since: timestampOf(ctx.query.since, 'since'), before: timestampOf(ctx.query.before, 'before'),
        created_by: text(ctx, 'created_by'), assigned_by: text(ctx, 'assigned_by'), mentioned_by: text(ctx, 'mentioned_by'), page: { page, limit },
      }, call.options);
      return ok(issuesOf(reply).map(present(ctx, call)), Number(reply.total));
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/issues', operationId: 'issueCreateIssue', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as CreateIssueBody;
      const assignees = [...(body.assignee ? [body.assignee] : []), ...(body.assignees ?? [])];
      const issue = await ctx.deps.services.issues.CreateIssue({
        title: body.title ?? '', body: body.body ?? '', ref: body.ref ?? '', assignees, labels: body.labels ?? [],
        milestone: body.milestone ?? 0, due_date: timestampOf(body.due_date, 'due_date'), closed: body.closed ?? false,
        assignable: await assignableFor(ctx, call, assignees),
      }, call.options);
      return created(present(ctx, call)(issue));
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/issues/:index', operationId: 'issueGetIssue', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => ok(present(ctx, call)(await ctx.deps.services.issues.GetIssue({ index: indexOf(ctx) }, call.options)))),
  },
  {
    // Gitea answers an edit with 201.
    method: 'PATCH', path: '/repos/:owner/:repo/issues/:index', operationId: 'issueEditIssue', access: 'signed', scopes: ['issue'], statusOverrides: EDIT_STATUSES,
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as EditIssueBody;
      const setAssignees = body.assignees !== undefined || body.assignee !== undefined;
      const assignees = [...(body.assignee ? [body.assignee] : []), ...(body.assignees ?? [])];
      const issue = await ctx.deps.services.issues.EditIssue({
        index: indexOf(ctx), title: body.title, body: body.body, ref: body.ref, state: body.state, milestone: body.milestone,
        set_assignees: setAssignees, assignees, due_date: timestampOf(body.due_date, 'due_date'), unset_due_date: body.unset_due_date ?? false,
        assignable: await assignableFor(ctx, call, assignees),
      }, call.options);
      return created(present(ctx, call)(issue));
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/issues/:index', operationId: 'issueDelete', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'admin',
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.issues.DeleteIssue({ index: indexOf(ctx) }, call.options);
      return noContent();
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/issues/:index/deadline', operationId: 'issueEditIssueDeadline', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write', // Gitea's UpdateIssueDeadline: CanWriteIssuesOrPulls
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as { due_date?: string | null };
      const issue = await ctx.deps.services.issues.SetIssueDeadline({ index: indexOf(ctx), due_date: timestampOf(body.due_date, 'due_date') }, call.options);
      return created({ due_date: issue.due_date ? formatTime(issue.due_date) : null });
    }),
  },
  {
    method: 'PUT', path: '/repos/:owner/:repo/issues/:index/lock', operationId: 'issueLockIssue', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'admin', // Gitea's reqAdmin on /lock
    handle: inRepository(async (ctx, call) => {
      const reason = (ctx.body as { lock_reason?: string }).lock_reason ?? '';
      await ctx.deps.services.issues.SetIssueLock({ index: indexOf(ctx), locked: true, reason }, call.options);
      return noContent();
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/issues/:index/lock', operationId: 'issueUnlockIssue', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'admin', // Gitea's reqAdmin on /lock
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.issues.SetIssueLock({ index: indexOf(ctx), locked: false, reason: '' }, call.options);
      return noContent();
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/issues/:index/pin', operationId: 'pinIssue', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'admin', // Gitea's reqAdmin on /pin
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.issues.PinIssue({ index: indexOf(ctx) }, call.options);
      return noContent();
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/issues/:index/pin', operationId: 'unpinIssue', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'admin', // Gitea's reqAdmin on /pin
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.issues.UnpinIssue({ index: indexOf(ctx) }, call.options);
      return noContent();
    }),
  },
  {
    method: 'PATCH', path: '/repos/:owner/:repo/issues/:index/pin/:position', operationId: 'moveIssuePin', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'admin', // Gitea's reqAdmin on /pin
    handle: inRepository(async (ctx, call) => {
      const position = /^\d{1,9}$/.test(ctx.params.position) ? Number(ctx.params.position) : 0;
      await ctx.deps.services.issues.MoveIssuePin({ index: indexOf(ctx), position }, call.options);
      return noContent();
    }),
  },
];
