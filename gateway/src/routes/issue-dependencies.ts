// Issue dependencies and blocks (routers/api/v1/repo/issue_dependency.go), within a
// repository or across repositories. The other issue (IssueMeta: owner, repo, index) may
// live in any repository the caller can see: the gateway resolves it for the caller (its
// cache), so one they cannot see is a 404, as Gitea answers. Lists show issues of other
// repositories with their own repository, dropping any the caller cannot see.
import { created, ok, type Route, type RouteContext } from '../http/route.js';
import { RepositoryAccessCache } from '../caches/repository-access.js';
import type { collaboration } from '@anvil/proto';
import { issuesOf, presentIssue, type IssueRepository, type ShownUsers } from '@anvil/presenters/issue.js';
import { inRepository, type RepositoryCall } from './issue-scope.js';
import { indexOf, WRITE_STATUSES } from './repo-issues.js';

interface OtherIssue { repositoryId: number; index: number; repo: IssueRepository }

/** The other issue of a dependency: in this repository unless the body names another. */
async function otherIssueOf(ctx: RouteContext, call: RepositoryCall): Promise<OtherIssue> {
  const meta = ctx.body as { owner?: string; repo?: string; index?: number };
  const owner = meta.owner?.trim() || call.repo.owner;
  const name = meta.repo?.trim() || call.repo.name;
  const index = Number(meta.index ?? 0);
  if (owner.toLowerCase() === call.repo.owner.toLowerCase() && name.toLowerCase() === call.repo.name.toLowerCase()) {
    return { repositoryId: 0, index, repo: call.repo };
  }
  const access = await ctx.deps.repositories.get(RepositoryAccessCache.keyOf(ctx.caller, owner, name),
    () => ctx.deps.services.repository.ResolveRepository({ owner, name }, { caller: ctx.caller }));
  const r = access.repository!;
  return { repositoryId: Number(r.id), index, repo: { id: Number(r.id), owner: r.owner_login, name: r.name } };
}

/**
 * Issues of this and other repositories, each with its repository: one call per other
 * repository on the page (dependencies across repositories are few), none for this one.
 */
async function presentAcross(ctx: RouteContext, call: RepositoryCall, issues: collaboration.Issue[]) {
  const otherIds = [...new Set(issues.map((i) => Number(i.repository_id)).filter((id) => id !== call.repo.id))];
  const repos = new Map<number, IssueRepository>([[call.repo.id, call.repo]]);
  await Promise.all(otherIds.map(async (id) => {
    const access = await ctx.deps.services.repository.GetRepositoryById({ id }, { caller: ctx.caller }).catch(() => undefined);
    const r = access?.repository;
    if (r) repos.set(id, { id, owner: r.owner_login, name: r.name });
  }));
  const shown: ShownUsers = new Map();
  return issues.flatMap((issue) => {
    const repo = repos.get(Number(issue.repository_id));
    return repo ? [presentIssue(issue, repo, ctx.caller, ctx.deps.config.rootUrl, shown)] : [];
  });
}

function listRoute(path: string, operationId: string, blocks: boolean): Route {
  return {
    method: 'GET', path, operationId, access: 'public', scopes: ['issue'],
    repoAccess: 'read',
    handle: inRepository(async (ctx, call) => {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.issues.ListIssueDependencies({ index: indexOf(ctx), blocks, page: { page, limit } }, call.options);
      return ok(await presentAcross(ctx, call, issuesOf(reply)), Number(reply.total));
    }),
  };
}

function changeRoute(method: 'POST' | 'DELETE', path: string, operationId: string, blocks: boolean): Route {
  const add = method === 'POST';
  return {
    method, path, operationId, access: 'signed', scopes: ['issue'], statusOverrides: WRITE_STATUSES,
    repoAccess: 'write', // Gitea's CreateIssueDependency: CanWriteIssuesOrPulls
    handle: inRepository(async (ctx, call) => {
      const other = await otherIssueOf(ctx, call);
      const issue = await ctx.deps.services.issues.SetIssueDependency({
        index: indexOf(ctx), other_index: other.index, other_repository_id: other.repositoryId, blocks, add,
      }, call.options);
      const body = presentIssue(issue, other.repo, ctx.caller, ctx.deps.config.rootUrl);
      return add ? created(body) : ok(body);
    }),
  };
}

export const issueDependencyRoutes: Route[] = [
  listRoute('/repos/:owner/:repo/issues/:index/dependencies', 'issueListIssueDependencies', false),
  changeRoute('POST', '/repos/:owner/:repo/issues/:index/dependencies', 'issueCreateIssueDependencies', false),
  changeRoute('DELETE', '/repos/:owner/:repo/issues/:index/dependencies', 'issueRemoveIssueDependencies', false),
  listRoute('/repos/:owner/:repo/issues/:index/blocks', 'issueListBlocks', true),
  changeRoute('POST', '/repos/:owner/:repo/issues/:index/blocks', 'issueCreateIssueBlocking', true),
  changeRoute('DELETE', '/repos/:owner/:repo/issues/:index/blocks', 'issueRemoveIssueBlocking', true),
];
