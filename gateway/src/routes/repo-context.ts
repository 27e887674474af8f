// What repository routes share: resolving `/repos/{owner}/{repo}` with the caller's
// permission in one call (the reply carries the owner too), and presenting replies.
import { notFound, type CallOptions } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import type { RouteContext } from '../http/route.js';
import { resolveRouteRepository } from '../http/repo-access.js';
import { presentRepository } from '@anvil/presenters/repository.js';
import { repoUrls, type RepoUrls } from '@anvil/presenters/repo-urls.js';

/**
 * How long a call that moves a repository's refs (contents, branch and tag writes) may
 * take. It waits its turn behind the repository's other writers, one at a time, so a
 * burst of them outlasts a read's 10 s; the repository service skips a writer whose
 * caller gave up before its turn, so a timeout never hides a write that landed later.
 */
export const REF_WRITE_DEADLINE_MS = 120_000;

/**
 * Call options for a call about the route's repository: the caller and, signed beside it,
 * the repository and permission the route resolved and checked (`repoAccess`), so the
 * service neither resolves it again nor re-derives the permission.
 */
export function repoCall(ctx: RouteContext): CallOptions {
  return { caller: ctx.caller, repository: ctx.repository };
}

/** repoCall for a ref-moving call, with REF_WRITE_DEADLINE_MS. */
export function refWrite(ctx: RouteContext): CallOptions {
  return { ...repoCall(ctx), deadlineMs: REF_WRITE_DEADLINE_MS };
}

export function repoRef(ctx: RouteContext): { owner: string; name: string } {
  return { owner: ctx.params.owner, name: ctx.params.repo };
}

/** The repository's html and API URLs: from its stored owner and name when the reply has them (as Gitea's), else the request's. */
export function repoUrlsOf(ctx: RouteContext, stored?: { owner: string; name: string } | null): RepoUrls {
  return repoUrls(ctx.deps.config.rootUrl, stored?.owner || ctx.params.owner, stored?.name || ctx.params.repo);
}

/** The repository and the caller's permission there: as the route resolved it, else from the gateway's cache when fresh. */
export async function resolveRepo(ctx: RouteContext): Promise<repository.RepositoryAccess> {
  return ctx.repository ?? resolveRouteRepository(ctx.deps, ctx.caller, ctx.params.owner!, ctx.params.repo!);
}

/** Presents repositories; each reply carries its owner, so no second call is needed. */
export function presentRepositories(ctx: RouteContext, list: repository.RepositoryAccess[]) {
  return list.flatMap((access) => (access.owner ? [presentRepository(access, access.owner, ctx.caller, ctx.deps.config.rootUrl)] : []));
}

export function presentOne(ctx: RouteContext, access: repository.RepositoryAccess) {
  const [presented] = presentRepositories(ctx, [access]);
  if (!presented) throw notFound('The target couldn\'t be found.', 'owner_not_found');
  return presented;
}
