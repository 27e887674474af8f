// /admin/unadopted: git data in the storage root without a repository row, for site
// admins to adopt or delete (routers/api/v1/admin/adopt.go).
// A repository row already there is a 409 (Gitea answers 404, hiding why); a name that could
// never be a repository is 422, as creation answers it.
import { noContent, ok, type Route } from '../http/route.js';

export const adminUnadoptedRoutes: Route[] = [
  {
    method: 'GET', path: '/admin/unadopted', operationId: 'adminUnadoptedList', access: 'admin', scopes: ['admin'],
    async handle(ctx) {
      const { page, limit } = ctx.page();
      // The document names the filter `pattern`; Gitea's handler reads `query`: both work.
      const raw = ctx.query.pattern ?? ctx.query.query;
      const reply = await ctx.deps.services.unadopted.ListUnadopted({ pattern: typeof raw === 'string' ? raw : '', page: { page, limit } }, { caller: ctx.caller });
      return ok(reply.names, Number(reply.total));
    },
  },
  {
    method: 'POST', path: '/admin/unadopted/:owner/:repo', operationId: 'adminAdoptRepository', access: 'admin', scopes: ['admin'],
    async handle(ctx) {
      await ctx.deps.services.unadopted.AdoptRepository({ owner: ctx.params.owner, name: ctx.params.repo }, { caller: ctx.caller });
      return noContent();
    },
  },
  {
    method: 'DELETE', path: '/admin/unadopted/:owner/:repo', operationId: 'adminDeleteUnadoptedRepository', access: 'admin', scopes: ['admin'],
    async handle(ctx) {
      await ctx.deps.services.unadopted.DeleteUnadopted({ owner: ctx.params.owner, name: ctx.params.repo }, { caller: ctx.caller });
      return noContent();
    },
  },
];
