// Forks (routers/api/v1/repo/fork.go): fork a repository the caller can read, and list the
// forks of one that the caller may see. The git data is copied by the repository service.
import { ok, type Route } from '../http/route.js';
import { presentOne, presentRepositories, repoCall, repoRef } from './repo-context.js';

// Gitea: an unknown organization is 422; a name taken, a repository already forked by that
// owner or a repository limit reached are 409 (ErrAlreadyExist, ErrReachLimitOfRepo).
const FORK_STATUSES = { org_not_found: 422, repo_exists: 409, already_forked: 409, repo_limit_reached: 409, not_org_member: 403, org_repo_creation_denied: 403 };

interface CreateForkOption {
  organization?: string;
  name?: string;
}

export const repoForkRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/forks', operationId: 'listForks', access: 'public', scopes: ['repository'],
    repoAccess: 'read',
    async handle(ctx) {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.repository.ListForks({ ref: repoRef(ctx), page: { page, limit } }, repoCall(ctx));
      return ok(presentRepositories(ctx, reply.repositories), Number(reply.total));
    },
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/forks', operationId: 'createFork', access: 'signed', scopes: ['repository'], statusOverrides: FORK_STATUSES,
    // Gitea's fork route needs only read access to the repository forked (reqRepoReader(unit.TypeCode)).
    repoAccess: 'read',
    async handle(ctx) {
      const body = (ctx.body ?? {}) as CreateForkOption;
      const fork = await ctx.deps.services.repository.ForkRepository({
        ref: repoRef(ctx), organization: body.organization ?? '', name: body.name ?? '',
      }, { ...repoCall(ctx), deadlineMs: 120_000 });
      // Gitea answers 202 (its "TODO change back to 201"), with the fork ready.
      return { status: 202, body: presentOne(ctx, fork) };
    },
  },
];
