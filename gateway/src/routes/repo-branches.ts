// Branches of a repository (routers/api/v1/repo/branch.go). Branch names contain `/`, so
// the single-branch routes take the rest of the path.
import { noContent, ok, created, type Route, type RouteContext } from '../http/route.js';
import { presentBranch } from '@anvil/presenters/branch.js';
import { refWrite, repoCall, repoRef } from './repo-context.js';

// Gitea's mustNotBeArchived: every branch write in an archived repository is 423 Locked.
const ARCHIVED_423 = { repo_archived: 423 };

function repoUrl(ctx: RouteContext): string {
  return `${ctx.deps.config.rootUrl}${ctx.params.owner}/${ctx.params.repo}`;
}

export const repoBranchRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/branches', operationId: 'repoListBranches', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.branches.ListBranches({ ref: repoRef(ctx), page: { page, limit } }, repoCall(ctx));
      return ok(reply.branches.map((b) => presentBranch(b, repoUrl(ctx))), reply.total);
    },
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/branches', operationId: 'repoCreateBranch', access: 'signed', scopes: ['repository'],
    repoAccess: 'write',
    statusOverrides: ARCHIVED_423,
    async handle(ctx) {
      const body = ctx.body as { new_branch_name?: string; old_branch_name?: string; old_ref_name?: string };
      const branch = await ctx.deps.services.branches.CreateBranch({
        ref: repoRef(ctx), new_branch_name: body.new_branch_name ?? '', old_branch_name: body.old_branch_name ?? '', old_ref_name: body.old_ref_name ?? '',
      }, refWrite(ctx));
      return created(presentBranch(branch, repoUrl(ctx)));
    },
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/branches/*branch', operationId: 'repoGetBranch', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const branch = await ctx.deps.services.branches.GetBranch({ ref: repoRef(ctx), branch: ctx.splat('branch') }, repoCall(ctx));
      return ok(presentBranch(branch, repoUrl(ctx)));
    },
  },
  {
    method: 'PUT', path: '/repos/:owner/:repo/branches/*branch', operationId: 'repoUpdateBranch', access: 'signed', scopes: ['repository'],
    repoAccess: 'write',
    statusOverrides: ARCHIVED_423,
    async handle(ctx) {
      const body = ctx.body as { new_commit_id?: string; old_commit_id?: string; force?: boolean };
      await ctx.deps.services.branches.UpdateBranch({
        ref: repoRef(ctx), branch: ctx.splat('branch'), new_commit_id: body.new_commit_id ?? '', old_commit_id: body.old_commit_id ?? '', force: body.force ?? false,
      }, refWrite(ctx));
      return noContent();
    },
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/branches/*branch', operationId: 'repoDeleteBranch', access: 'signed', scopes: ['repository'],
    repoAccess: 'write',
    statusOverrides: ARCHIVED_423,
    async handle(ctx) {
      await ctx.deps.services.branches.DeleteBranch({ ref: repoRef(ctx), branch: ctx.splat('branch') }, refWrite(ctx));
      return noContent();
    },
  },
  {
    method: 'PATCH', path: '/repos/:owner/:repo/branches/*branch', operationId: 'repoRenameBranch', access: 'signed', scopes: ['repository'],
    repoAccess: 'write',
    statusOverrides: ARCHIVED_423,
    async handle(ctx) {
      const name = (ctx.body as { name?: string }).name ?? '';
      await ctx.deps.services.branches.RenameBranch({ ref: repoRef(ctx), branch: ctx.splat('branch'), name }, refWrite(ctx));
      return noContent();
    },
  },
];
