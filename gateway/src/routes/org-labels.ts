// Organization labels (routers/api/v1/org/label.go), usable in every repository of the
// organization. The gateway asks identity for the organization as the caller sees it (a
// private one they may not see is a 404) and sends that answer, signed, with the call.
import { created, noContent, ok, type Reply, type Route, type RouteContext } from '../http/route.js';
import { presentLabel } from '@anvil/presenters/issue.js';
import type { CallOptions } from '@anvil/kit';

interface OrgCall {
  org: string;
  options: CallOptions;
}

function inOrg(handle: (ctx: RouteContext, call: OrgCall) => Promise<Reply>) {
  return async (ctx: RouteContext): Promise<Reply> => {
    const view = await ctx.deps.services.orgs.GetOrg({ name: ctx.params.org }, { caller: ctx.caller });
    return handle(ctx, { org: view.org?.account?.login ?? ctx.params.org, options: { caller: ctx.caller, org: view } });
  };
}

const idParam = (ctx: RouteContext) => (/^\d{1,15}$/.test(ctx.params.id ?? '') ? Number(ctx.params.id) : 0);
const present = (ctx: RouteContext, call: OrgCall) => (label: Parameters<typeof presentLabel>[0]) => presentLabel(label, ctx.deps.config.rootUrl, { id: 0, owner: call.org, name: '' });

interface LabelBody { name?: string; color?: string; description?: string; exclusive?: boolean; is_archived?: boolean }

export const orgLabelRoutes: Route[] = [
  {
    method: 'GET', path: '/orgs/:org/labels', operationId: 'orgListLabels', access: 'public', scopes: ['organization'],
    handle: inOrg(async (ctx, call) => {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.labels.ListOrgLabels({ page: { page, limit } }, call.options);
      return ok(reply.labels.map(present(ctx, call)), Number(reply.total));
    }),
  },
  {
    method: 'POST', path: '/orgs/:org/labels', operationId: 'orgCreateLabel', access: 'signed', scopes: ['organization'],
    handle: inOrg(async (ctx, call) => {
      const body = ctx.body as LabelBody;
      const label = await ctx.deps.services.labels.CreateOrgLabel({
        name: body.name ?? '', color: body.color ?? '', description: body.description ?? '', exclusive: body.exclusive ?? false, is_archived: body.is_archived ?? false,
      }, call.options);
      return created(present(ctx, call)(label));
    }),
  },
  {
    method: 'GET', path: '/orgs/:org/labels/:id', operationId: 'orgGetLabel', access: 'signed', scopes: ['organization'],
    handle: inOrg(async (ctx, call) => ok(present(ctx, call)(await ctx.deps.services.labels.GetOrgLabel({ id: idParam(ctx) }, call.options)))),
  },
  {
    method: 'PATCH', path: '/orgs/:org/labels/:id', operationId: 'orgEditLabel', access: 'signed', scopes: ['organization'],
    handle: inOrg(async (ctx, call) => {
      const body = ctx.body as LabelBody;
      const label = await ctx.deps.services.labels.EditOrgLabel({
        id: idParam(ctx), name: body.name, color: body.color, description: body.description, exclusive: body.exclusive, is_archived: body.is_archived,
      }, call.options);
      return ok(present(ctx, call)(label));
    }),
  },
  {
    method: 'DELETE', path: '/orgs/:org/labels/:id', operationId: 'orgDeleteLabel', access: 'signed', scopes: ['organization'],
    handle: inOrg(async (ctx, call) => {
      await ctx.deps.services.labels.DeleteOrgLabel({ id: idParam(ctx) }, call.options);
      return noContent();
    }),
  },
];
