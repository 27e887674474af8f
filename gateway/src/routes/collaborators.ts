// Collaborators of a repository (routers/api/v1/repo/collaborators.go).
import { noContent, ok, type Route } from '../http/route.js';
import { presentUser } from '@anvil/presenters/user.js';
import { repoCall, repoRef } from './repo-context.js';


// Gitea answers an unknown collaborator name with 422 on these routes (404 on /permission).
const UNKNOWN_USER_422 = { user_not_found: 422 };

export const collaboratorRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/collaborators', operationId: 'repoListCollaborators', access: 'signed', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.repository.ListCollaborators({ ref: repoRef(ctx), page: { page, limit } }, repoCall(ctx));
      const body = reply.collaborators.flatMap((c) => (c.user ? [presentUser(c.user, ctx.caller, ctx.deps.config.rootUrl)] : []));
      return ok(body, reply.total);
    },
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/collaborators/:collaborator', operationId: 'repoCheckCollaborator', access: 'signed', scopes: ['repository'],
    repoAccess: 'read',
    statusOverrides: UNKNOWN_USER_422,
    async handle(ctx) {
      await ctx.deps.services.repository.GetCollaborator({ ref: repoRef(ctx), collaborator: ctx.params.collaborator }, repoCall(ctx));
      return noContent();
    },
  },
  {
    method: 'PUT', path: '/repos/:owner/:repo/collaborators/:collaborator', operationId: 'repoAddCollaborator', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    statusOverrides: { ...UNKNOWN_USER_422, collaborator_is_owner: 422 },
    async handle(ctx) {
      const permission = (ctx.body as { permission?: string }).permission ?? '';
      await ctx.deps.services.repository.SetCollaborator({ ref: repoRef(ctx), collaborator: ctx.params.collaborator, permission }, repoCall(ctx));
      return noContent();
    },
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/collaborators/:collaborator', operationId: 'repoDeleteCollaborator', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    statusOverrides: UNKNOWN_USER_422,
    async handle(ctx) {
      await ctx.deps.services.repository.RemoveCollaborator({ ref: repoRef(ctx), collaborator: ctx.params.collaborator }, repoCall(ctx));
      return noContent();
    },
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/collaborators/:collaborator/permission', operationId: 'repoGetRepoPermissions', access: 'signed', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const reply = await ctx.deps.services.repository.GetUserPermission({ ref: repoRef(ctx), collaborator: ctx.params.collaborator }, repoCall(ctx));
      return ok({ permission: reply.permission, role_name: reply.permission, user: presentUser(reply.user!, ctx.caller, ctx.deps.config.rootUrl) });
    },
  },
];
