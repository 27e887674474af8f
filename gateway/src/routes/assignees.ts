// Who can be assigned (routers/api/v1/repo/issue_assignee.go, repo/collaborators.go
// GetAssignees): the repository service knows who has write access; collaboration refuses
// an assignee outside that list. The list is fetched only when a request names assignees.
import { notFound } from '@anvil/kit';
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentIssue } from '@anvil/presenters/issue.js';
import { presentUser } from '@anvil/presenters/user.js';
import { inRepository, type RepositoryCall } from './issue-scope.js';

const WRITERS = ['write', 'admin', 'owner'];

async function assignableUsers(ctx: RouteContext, call: RepositoryCall) {
  return (await ctx.deps.services.repository.ListAssignees({ owner: call.repo.owner, name: call.repo.name }, { caller: ctx.caller })).users;
}

/**
 * The users who may be assigned, for a request naming `logins` (undefined when it names
 * none, or when the caller cannot set assignees anyway: collaboration drops them then).
 */
export async function assignableFor(ctx: RouteContext, call: RepositoryCall, logins: string[]): Promise<{ ids: number[] } | undefined> {
  if (!logins.some((l) => l.trim()) || !WRITERS.includes(call.access.permission)) return undefined;
  return { ids: (await assignableUsers(ctx, call)).map((u) => Number(u.id)) };
}

/** 204 when `login` may be assigned in the repository, else 404 (Gitea's CanBeAssigned). */
async function checkAssignable(ctx: RouteContext, call: RepositoryCall) {
  const login = ctx.params.assignee.toLowerCase();
  if (!(await assignableUsers(ctx, call)).some((u) => u.login.toLowerCase() === login)) throw notFound('The target couldn\'t be found.', 'assignee_not_found');
  return noContent();
}

const indexOf = (ctx: RouteContext) => (/^\d{1,15}$/.test(ctx.params.index) ? Number(ctx.params.index) : 0);
const loginsOf = (ctx: RouteContext) => ((ctx.body as { assignees?: string[] }).assignees ?? []);

// Gitea's updateIssueAssignees: an assignee without access is a permission error (403);
// an archived repository refuses writes (423).
const CHANGE_STATUSES = { assignee_no_access: 403, repo_archived: 423 };

export const assigneeRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/assignees', operationId: 'repoGetAssignees', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const users = await assignableUsers(ctx, call);
      return ok(users.map((u) => presentUser(u, ctx.caller, ctx.deps.config.rootUrl)), users.length);
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/assignees/:assignee', operationId: 'repoCheckAssignee', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    handle: inRepository(checkAssignable),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/issues/:index/assignees/:assignee', operationId: 'issueCheckAssignee', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.issues.GetIssue({ index: indexOf(ctx) }, call.options);
      return checkAssignable(ctx, call);
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/issues/:index/assignees', operationId: 'issueAddAssignees', access: 'signed', scopes: ['issue'], statusOverrides: CHANGE_STATUSES,
    repoAccess: 'write', // Gitea's updateIssueAssignees: CanWriteIssuesOrPulls
    handle: inRepository(async (ctx, call) => {
      const issue = await ctx.deps.services.issues.ChangeIssueAssignees({
        index: indexOf(ctx), assignees: loginsOf(ctx), add: true, assignable: await assignableFor(ctx, call, loginsOf(ctx)),
      }, call.options);
      return created(presentIssue(issue, call.repo, ctx.caller, ctx.deps.config.rootUrl));
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/issues/:index/assignees', operationId: 'issueRemoveAssignees', access: 'signed', scopes: ['issue'], statusOverrides: CHANGE_STATUSES,
    repoAccess: 'write', // Gitea's updateIssueAssignees: CanWriteIssuesOrPulls
    handle: inRepository(async (ctx, call) => {
      const issue = await ctx.deps.services.issues.ChangeIssueAssignees({ index: indexOf(ctx), assignees: loginsOf(ctx), add: false }, call.options);
      return ok(presentIssue(issue, call.repo, ctx.caller, ctx.deps.config.rootUrl));
    }),
  },
];
