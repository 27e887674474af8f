// Milestones of a repository (routers/api/v1/repo/milestone.go): `{id}` is an id or a name.
import { created, noContent, ok, type Route } from '../http/route.js';
import { presentMilestone } from '@anvil/presenters/issue.js';
import { inRepository } from './issue-scope.js';
import { timestampOf } from './repo-issues.js';

// Gitea's mustNotBeArchived: every write in an archived repository is 423 Locked.
const WRITE_STATUSES = { repo_archived: 423 };

interface MilestoneBody { title?: string; description?: string; state?: string; due_on?: string }

export const repoMilestoneRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/milestones', operationId: 'issueGetMilestonesList', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const { page, limit } = ctx.page();
      const text = (name: string) => (typeof ctx.query[name] === 'string' ? (ctx.query[name] as string) : '');
      const reply = await ctx.deps.services.milestones.ListMilestones({ state: text('state'), name: text('name'), page: { page, limit } }, call.options);
      return ok(reply.milestones.map(presentMilestone), Number(reply.total));
    }),
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/milestones', operationId: 'issueCreateMilestone', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as MilestoneBody;
      const milestone = await ctx.deps.services.milestones.CreateMilestone({
        title: body.title ?? '', description: body.description ?? '', state: body.state ?? '', due_on: timestampOf(body.due_on, 'due_on'),
      }, call.options);
      return created(presentMilestone(milestone));
    }),
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/milestones/:id', operationId: 'issueGetMilestone', access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => ok(presentMilestone(await ctx.deps.services.milestones.GetMilestone({ id_or_name: ctx.params.id }, call.options)))),
  },
  {
    method: 'PATCH', path: '/repos/:owner/:repo/milestones/:id', operationId: 'issueEditMilestone', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write',
    handle: inRepository(async (ctx, call) => {
      const body = ctx.body as MilestoneBody;
      const milestone = await ctx.deps.services.milestones.EditMilestone({
        id_or_name: ctx.params.id, title: body.title, description: body.description, state: body.state, due_on: timestampOf(body.due_on, 'due_on'),
      }, call.options);
      return ok(presentMilestone(milestone));
    }),
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/milestones/:id', operationId: 'issueDeleteMilestone', access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write',
    handle: inRepository(async (ctx, call) => {
      await ctx.deps.services.milestones.DeleteMilestone({ id_or_name: ctx.params.id }, call.options);
      return noContent();
    }),
  },
];
