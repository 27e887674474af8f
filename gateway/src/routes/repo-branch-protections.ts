// Branch protection rules (routers/api/v1/repo/branch.go, *BranchProtection): admin
// permission on the repository; the JSON field names are the proto's.
import type { repository } from '@anvil/proto';
import { created, noContent, ok, type Route } from '../http/route.js';
import { presentBranchProtection } from '@anvil/presenters/branch.js';
import { repoCall, repoRef } from './repo-context.js';

// Gitea: a rule of that name exists → 403 "Branch protection already exist"; changing the
// rules of an archived repository is 423 Locked (mustNotBeArchived).
const OVERRIDES = { branch_protection_exists: 403, user_not_found: 422, repo_archived: 423 };

function protectionOf(body: Record<string, unknown>): repository.BranchProtection {
  return body as unknown as repository.BranchProtection;
}

export const repoBranchProtectionRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/branch_protections', operationId: 'repoListBranchProtection', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    async handle(ctx) {
      const reply = await ctx.deps.services.branches.ListBranchProtections(repoRef(ctx), repoCall(ctx));
      return ok(reply.protections.map(presentBranchProtection));
    },
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/branch_protections', operationId: 'repoCreateBranchProtection', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    statusOverrides: OVERRIDES,
    async handle(ctx) {
      const body = { ...(ctx.body as Record<string, unknown>) };
      // branch_name is the deprecated spelling of rule_name.
      if (!body.rule_name && body.branch_name) body.rule_name = body.branch_name;
      const reply = await ctx.deps.services.branches.CreateBranchProtection({ ref: repoRef(ctx), protection: protectionOf(body) }, repoCall(ctx));
      return created(presentBranchProtection(reply));
    },
  },
  {
    // Before /*name, which would otherwise take "priority" for a rule name.
    method: 'POST', path: '/repos/:owner/:repo/branch_protections/priority', operationId: 'repoUpdateBranchProtectionPriories', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    statusOverrides: OVERRIDES,
    async handle(ctx) {
      const ids = ((ctx.body as { ids?: number[] }).ids ?? []).map(Number);
      await ctx.deps.services.branches.UpdateBranchProtectionPriorities({ ref: repoRef(ctx), ids }, repoCall(ctx));
      return noContent();
    },
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/branch_protections/*name', operationId: 'repoGetBranchProtection', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    async handle(ctx) {
      const reply = await ctx.deps.services.branches.GetBranchProtection({ ref: repoRef(ctx), name: ctx.splat('name') }, repoCall(ctx));
      return ok(presentBranchProtection(reply));
    },
  },
  {
    method: 'PATCH', path: '/repos/:owner/:repo/branch_protections/*name', operationId: 'repoEditBranchProtection', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    statusOverrides: OVERRIDES,
    async handle(ctx) {
      const body = ctx.body as Record<string, unknown>;
      // PATCH changes only what the body names (Gitea's pointer fields); null means absent.
      const present = Object.keys(body).filter((k) => body[k] !== null && body[k] !== undefined);
      const reply = await ctx.deps.services.branches.EditBranchProtection({ ref: repoRef(ctx), name: ctx.splat('name'), protection: protectionOf(body), present }, repoCall(ctx));
      return ok(presentBranchProtection(reply));
    },
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/branch_protections/*name', operationId: 'repoDeleteBranchProtection', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    statusOverrides: OVERRIDES,
    async handle(ctx) {
      await ctx.deps.services.branches.DeleteBranchProtection({ ref: repoRef(ctx), name: ctx.splat('name') }, repoCall(ctx));
      return noContent();
    },
  },
];
