// Webhooks (routers/api/v1/repo/hook.go, org/hook.go, user/hook.go, admin/hooks.go): the
// same five operations on four scopes. The gateway decides the scope and who may manage it
// (repository admins, organization owners, the signed-in user, site admins); the hooks
// service validates and stores. Test deliveries are in repo-hook-tests.ts.
import type { hooks } from '@anvil/proto';
import { ApiError } from '../http/errors.js';
import { created, noContent, ok, type Route, type RouteContext } from '../http/route.js';
import type { ScopeCategory } from '../auth/scopes.js';
import type { Access } from '../http/route.js';
import type { RepoAccess } from '../http/repo-access.js';
import { presentDelivery, presentHook } from '@anvil/presenters/hook.js';
import { resolveRepo } from './repo-context.js';

/** The repository's hooks; the routes are for its admins only (`repoAccess: 'admin'`, Gitea's reqAdmin). */
export async function repoHookScope(ctx: RouteContext): Promise<hooks.HookScopeInput> {
  const access = await resolveRepo(ctx);
  return { repo_id: access.repository!.id };
}

/** The organization's hooks, for its owners and site admins (Gitea's reqOrgOwnership). */
async function orgHookScope(ctx: RouteContext): Promise<hooks.HookScopeInput> {
  const view = await ctx.deps.services.orgs.GetOrg({ name: ctx.params.org }, { caller: ctx.caller });
  if (!view.caller_is_owner && !ctx.caller.isAdmin) throw new ApiError(403, 'Must be an organization owner');
  return { owner_id: Number(view.org!.account!.id) };
}

const userHookScope = async (ctx: RouteContext): Promise<hooks.HookScopeInput> => ({ owner_id: ctx.caller.userId });

function adminHookScope(ctx: RouteContext): hooks.HookScopeInput {
  const kind = typeof ctx.query.type === 'string' ? ctx.query.type : 'system';
  if (!['system', 'default', 'all'].includes(kind)) throw new ApiError(422, `invalid type: ${kind}`);
  return { system: true, admin_kind: kind };
}

/** A path id that is a positive whole number, else 404 as for a hook that does not exist. */
function hookId(ctx: RouteContext): number {
  const id = Number(ctx.params.id);
  if (!Number.isSafeInteger(id) || id <= 0) throw new ApiError(404, 'The target couldn\'t be found.');
  return id;
}

type Body = Record<string, unknown>;
const text = (body: Body, key: string) => (typeof body[key] === 'string' ? (body[key] as string) : '');
const stringMap = (value: unknown): Record<string, string> =>
  Object.fromEntries(Object.entries((value ?? {}) as Record<string, unknown>).map(([k, v]) => [k, String(v)]));

function createRequest(scope: hooks.HookScopeInput, body: Body): hooks.CreateHookRequestInput {
  return {
    scope, type: text(body, 'type'), name: text(body, 'name'), config: stringMap(body.config),
    events: Array.isArray(body.events) ? (body.events as string[]) : [], branch_filter: text(body, 'branch_filter'),
    authorization_header: text(body, 'authorization_header'), active: body.active === true,
  };
}

function editRequest(scope: hooks.HookScopeInput, id: number, body: Body): hooks.EditHookRequestInput {
  const request: hooks.EditHookRequestInput = {
    ref: { scope, id }, has_config: body.config !== undefined && body.config !== null, config: stringMap(body.config),
    events: Array.isArray(body.events) ? (body.events as string[]) : [], has_events: Array.isArray(body.events),
  };
  if (typeof body.branch_filter === 'string') request.branch_filter = body.branch_filter;
  if (typeof body.authorization_header === 'string') request.authorization_header = body.authorization_header;
  if (typeof body.active === 'boolean') request.active = body.active;
  if (typeof body.name === 'string') request.name = body.name;
  return request;
}

interface HookArea {
  /** Path of the list, e.g. `/repos/:owner/:repo/hooks`; one hook is `<base>/:id`. */
  base: string;
  /** The contract's operationId prefix: repo, org, user, admin. */
  prefix: 'repo' | 'org' | 'user' | 'admin';
  access: Access;
  scopes: readonly ScopeCategory[];
  /** For the repository's hooks: Gitea's reqAdmin. */
  repoAccess?: RepoAccess;
  scope(ctx: RouteContext): Promise<hooks.HookScopeInput> | hooks.HookScopeInput;
}

const AREAS: HookArea[] = [
  { base: '/repos/:owner/:repo/hooks', prefix: 'repo', access: 'signed', scopes: ['repository'], repoAccess: 'admin', scope: repoHookScope },
  { base: '/orgs/:org/hooks', prefix: 'org', access: 'signed', scopes: ['organization'], scope: orgHookScope },
  { base: '/user/hooks', prefix: 'user', access: 'signed', scopes: ['user'], scope: userHookScope },
  { base: '/admin/hooks', prefix: 'admin', access: 'admin', scopes: ['admin'], scope: adminHookScope },
];

/** Gitea's operation ids: repoListHooks, orgListHooks, userListHooks, adminListHooks, ... */
const op = (area: HookArea, verb: string) => `${area.prefix}${verb}`;

function areaRoutes(area: HookArea): Route[] {
  const common = { access: area.access, scopes: area.scopes, repoAccess: area.repoAccess };
  return [
    {
      ...common, method: 'GET', path: area.base, operationId: op(area, 'ListHooks'),
      async handle(ctx) {
        const { page, limit } = ctx.page();
        const reply = await ctx.deps.services.hooks.ListHooks({ scope: await area.scope(ctx), page: { page, limit } }, { caller: ctx.caller });
        return ok(reply.hooks.map(presentHook), Number(reply.total));
      },
    },
    {
      ...common, method: 'POST', path: area.base, operationId: op(area, 'CreateHook'),
      async handle(ctx) {
        const hook = await ctx.deps.services.hooks.CreateHook(createRequest(await area.scope(ctx), ctx.body), { caller: ctx.caller });
        return created(presentHook(hook));
      },
    },
    {
      ...common, method: 'GET', path: `${area.base}/:id`, operationId: op(area, 'GetHook'),
      async handle(ctx) {
        const id = hookId(ctx);
        return ok(presentHook(await ctx.deps.services.hooks.GetHook({ scope: await area.scope(ctx), id }, { caller: ctx.caller })));
      },
    },
    {
      ...common, method: 'PATCH', path: `${area.base}/:id`, operationId: op(area, 'EditHook'),
      async handle(ctx) {
        const id = hookId(ctx);
        return ok(presentHook(await ctx.deps.services.hooks.EditHook(editRequest(await area.scope(ctx), id, ctx.body), { caller: ctx.caller })));
      },
    },
    {
      ...common, method: 'DELETE', path: `${area.base}/:id`, operationId: op(area, 'DeleteHook'),
      async handle(ctx) {
        const id = hookId(ctx);
        await ctx.deps.services.hooks.DeleteHook({ scope: await area.scope(ctx), id }, { caller: ctx.caller });
        return noContent();
      },
    },
    // Beyond Gitea: the hook's deliveries (contract/extensions.ts).
    {
      ...common, method: 'GET', path: `${area.base}/:id/deliveries`, operationId: op(area, 'ListHookDeliveries'),
      async handle(ctx) {
        const id = hookId(ctx);
        const { page, limit } = ctx.page();
        const reply = await ctx.deps.services.hooks.ListDeliveries({ hook: { scope: await area.scope(ctx), id }, page: { page, limit } }, { caller: ctx.caller });
        return ok(reply.deliveries.map((d) => presentDelivery(d, false)), Number(reply.total));
      },
    },
    {
      ...common, method: 'GET', path: `${area.base}/:id/deliveries/:delivery_id`, operationId: op(area, 'GetHookDelivery'),
      async handle(ctx) {
        const hook = { scope: await area.scope(ctx), id: hookId(ctx) };
        return ok(presentDelivery(await ctx.deps.services.hooks.GetDelivery({ hook, uuid: ctx.params.delivery_id }, { caller: ctx.caller }), true));
      },
    },
    {
      ...common, method: 'POST', path: `${area.base}/:id/deliveries/:delivery_id/attempts`, operationId: op(area, 'RedeliverHookDelivery'),
      async handle(ctx) {
        const hook = { scope: await area.scope(ctx), id: hookId(ctx) };
        const delivery = await ctx.deps.services.hooks.RedeliverDelivery({ hook, uuid: ctx.params.delivery_id }, { caller: ctx.caller });
        return { status: 202, body: presentDelivery(delivery, true) };
      },
    },
  ];
}

export const hookRoutes: Route[] = AREAS.flatMap(areaRoutes);
