// /orgs/{org}...: organizations and their members (routers/api/v1/org/org.go, member.go),
// plus the organization lists under /user, /users/{username} and /admin. Who may see and
// change what is decided by identity's OrgService; these handlers map its answers.
import type { identity } from '@anvil/proto';
import { ApiError } from '../http/errors.js';
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import { presentOrg } from '@anvil/presenters/org.js';
import { presentUser } from '@anvil/presenters/user.js';
import { presentFields, visibilityOf } from './convert.js';
import { refuseWhileOwningRepositories } from './ownership.js';

const ORG_STATUS = { user_already_exists: 422, org_creation_not_allowed: 403, last_org_owner: 422 };
const EDITABLE = ['full_name', 'email', 'description', 'website', 'location', 'repo_admin_change_team_access'] as const;

const orgsOf = (ctx: RouteContext, page: identity.OrgPage) => ok(page.orgs.map((o) => presentOrg(o, ctx.deps.config.rootUrl)), Number(page.total));
const usersOf = (ctx: RouteContext, page: identity.UserPage) =>
  ok(page.users.map((u) => presentUser(u, ctx.caller, ctx.deps.config.rootUrl)), Number(page.total));

function createOrgRequest(body: Record<string, unknown>, ownerLogin: string): identity.CreateOrgRequestInput {
  const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : '');
  return {
    owner_login: ownerLogin,
    name: text('username'),
    full_name: text('full_name'),
    email: text('email'),
    description: text('description'),
    website: text('website'),
    location: text('location'),
    visibility: visibilityOf(body.visibility),
    repo_admin_change_team_access: Boolean(body.repo_admin_change_team_access),
  };
}

export const orgsRoutes: Route[] = [
  {
    method: 'GET', path: '/orgs', operationId: 'orgGetAll', access: 'public', scopes: ['organization'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      return orgsOf(ctx, await ctx.deps.services.orgs.ListOrgs({ page: { page, limit } }, { caller: ctx.caller }));
    },
  },
  {
    method: 'POST', path: '/orgs', operationId: 'orgCreate', access: 'signed', scopes: ['organization'], statusOverrides: ORG_STATUS,
    async handle(ctx) {
      const org = await ctx.deps.services.orgs.CreateOrg(createOrgRequest(ctx.body, ''), { caller: ctx.caller });
      return created(presentOrg(org, ctx.deps.config.rootUrl));
    },
  },
  {
    method: 'GET', path: '/orgs/:org', operationId: 'orgGet', access: 'public', scopes: ['organization'],
    async handle(ctx) {
      const view = await ctx.deps.services.orgs.GetOrg({ name: ctx.params.org }, { caller: ctx.caller });
      return ok(presentOrg(view.org!, ctx.deps.config.rootUrl));
    },
  },
  {
    method: 'PATCH', path: '/orgs/:org', operationId: 'orgEdit', access: 'signed', scopes: ['organization'], statusOverrides: ORG_STATUS,
    async handle(ctx) {
      const body = ctx.body as Record<string, unknown>;
      const request: identity.EditOrgRequestInput = { name: ctx.params.org, ...presentFields<identity.EditOrgRequestInput>(body, EDITABLE) };
      const visibility = visibilityOf(body.visibility);
      if (visibility) request.visibility = visibility;
      const org = await ctx.deps.services.orgs.EditOrg(request, { caller: ctx.caller });
      return ok(presentOrg(org, ctx.deps.config.rootUrl));
    },
  },
  {
    method: 'DELETE', path: '/orgs/:org', operationId: 'orgDelete', access: 'signed', scopes: ['organization'],
    async handle(ctx) {
      // Only for those allowed to delete it (others get identity's refusal), an organization
      // that still owns repositories is kept, as Gitea's DeleteOrganization without purge.
      const view = await ctx.deps.services.orgs.GetOrg({ name: ctx.params.org }, { caller: ctx.caller });
      if (view.caller_is_owner || ctx.caller.isAdmin) await refuseWhileOwningRepositories(ctx, { id: Number(view.org?.account?.id ?? 0) });
      await ctx.deps.services.orgs.DeleteOrg({ name: ctx.params.org }, { caller: ctx.caller });
      return noContent();
    },
  },
  {
    method: 'POST', path: '/orgs/:org/rename', operationId: 'renameOrg', access: 'signed', scopes: ['organization'], statusOverrides: ORG_STATUS,
    async handle(ctx) {
      const newName = String((ctx.body as { new_name?: unknown }).new_name ?? '');
      await ctx.deps.services.orgs.RenameOrg({ name: ctx.params.org, new_name: newName }, { caller: ctx.caller });
      return noContent();
    },
  },
  {
    method: 'GET', path: '/user/orgs', operationId: 'orgListCurrentUserOrgs', access: 'signed', scopes: ['user', 'organization'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      return orgsOf(ctx, await ctx.deps.services.orgs.ListUserOrgs({ login: ctx.caller.login, page: { page, limit } }, { caller: ctx.caller }));
    },
  },
  {
    method: 'GET', path: '/users/:username/orgs', operationId: 'orgListUserOrgs', access: 'public', scopes: ['user', 'organization'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      return orgsOf(ctx, await ctx.deps.services.orgs.ListUserOrgs({ login: ctx.params.username, page: { page, limit } }, { caller: ctx.caller }));
    },
  },
  {
    method: 'GET', path: '/users/:username/orgs/:org/permissions', operationId: 'orgGetUserPermissions', access: 'signed', scopes: ['user', 'organization'],
    async handle(ctx) {
      const permissions = await ctx.deps.services.orgs.GetMemberPermissions({ org: ctx.params.org, login: ctx.params.username }, { caller: ctx.caller });
      return ok({
        can_read: permissions.can_read,
        can_write: permissions.can_write,
        is_admin: permissions.is_admin,
        is_owner: permissions.is_owner,
        can_create_repository: permissions.can_create_repository,
      });
    },
  },
  {
    method: 'GET', path: '/admin/orgs', operationId: 'adminGetAllOrgs', access: 'admin', scopes: ['admin'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      return orgsOf(ctx, await ctx.deps.services.orgs.ListOrgs({ page: { page, limit }, all: true }, { caller: ctx.caller }));
    },
  },
  {
    method: 'POST', path: '/admin/users/:username/orgs', operationId: 'adminCreateOrg', access: 'admin', scopes: ['admin'],
    statusOverrides: { ...ORG_STATUS, user_not_found: 404 },
    async handle(ctx) {
      const org = await ctx.deps.services.orgs.CreateOrg(createOrgRequest(ctx.body, ctx.params.username), { caller: ctx.caller });
      return created(presentOrg(org, ctx.deps.config.rootUrl));
    },
  },

  // Members. Gitea lists only public members to callers outside the organization.
  {
    method: 'GET', path: '/orgs/:org/members', operationId: 'orgListMembers', access: 'signed', scopes: ['organization'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      return usersOf(ctx, await ctx.deps.services.orgs.ListMembers({ org: ctx.params.org, page: { page, limit } }, { caller: ctx.caller }));
    },
  },
  {
    method: 'GET', path: '/orgs/:org/public_members', operationId: 'orgListPublicMembers', access: 'public', scopes: ['organization'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      return usersOf(ctx, await ctx.deps.services.orgs.ListMembers(
        { org: ctx.params.org, page: { page, limit }, public_only: true }, { caller: ctx.caller }));
    },
  },
  {
    // Gitea's IsMember: members and site admins learn the answer (204/404); a non-member
    // asking about someone else is redirected to the public membership check.
    method: 'GET', path: '/orgs/:org/members/:username', operationId: 'orgIsMember', access: 'signed', scopes: ['organization'],
    async handle(ctx) {
      const facts = await ctx.deps.services.orgs.GetMembership({ org: ctx.params.org, login: ctx.params.username }, { caller: ctx.caller });
      if (facts.caller_is_member || ctx.caller.isAdmin) {
        if (facts.is_member) return noContent();
        throw new ApiError(404, 'The target couldn\'t be found.');
      }
      if (facts.user?.id === ctx.caller.userId) throw new ApiError(404, 'The target couldn\'t be found.');
      const root = new URL(ctx.deps.config.rootUrl).pathname.replace(/\/$/, '');
      ctx.res.setHeader('Location', `${root}/api/v1/orgs/${encodeURIComponent(ctx.params.org)}/public_members/${encodeURIComponent(facts.user?.login ?? ctx.params.username)}`);
      return { status: 303 };
    },
  },
  {
    method: 'DELETE', path: '/orgs/:org/members/:username', operationId: 'orgDeleteMember', access: 'signed', scopes: ['organization'],
    statusOverrides: ORG_STATUS,
    async handle(ctx) {
      await ctx.deps.services.orgs.RemoveMember({ org: ctx.params.org, login: ctx.params.username }, { caller: ctx.caller });
      return noContent();
    },
  },
  {
    method: 'GET', path: '/orgs/:org/public_members/:username', operationId: 'orgIsPublicMember', access: 'public', scopes: ['organization'],
    async handle(ctx) {
      const facts = await ctx.deps.services.orgs.GetMembership({ org: ctx.params.org, login: ctx.params.username }, { caller: ctx.caller });
      if (facts.is_member && facts.is_public) return noContent();
      throw new ApiError(404, 'The target couldn\'t be found.');
    },
  },
  {
    method: 'PUT', path: '/orgs/:org/public_members/:username', operationId: 'orgPublicizeMember', access: 'signed', scopes: ['organization'],
    async handle(ctx) {
      await ctx.deps.services.orgs.SetMemberPublic({ org: ctx.params.org, login: ctx.params.username, public: true }, { caller: ctx.caller });
      return noContent();
    },
  },
  {
    method: 'DELETE', path: '/orgs/:org/public_members/:username', operationId: 'orgConcealMember', access: 'signed', scopes: ['organization'],
    async handle(ctx) {
      await ctx.deps.services.orgs.SetMemberPublic({ org: ctx.params.org, login: ctx.params.username, public: false }, { caller: ctx.caller });
      return noContent();
    },
  },
];
