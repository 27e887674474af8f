// What repository routes share: resolving `/repos/{owner}/{repo}` with the caller's
// permission in one call (the reply carries the owner too), and presenting replies.
import { notFound } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import { RepositoryAccessCache } from '../caches/repository-access.js';
import type { RouteContext } from '../http/route.js';
import { presentRepository } from '../presenters/repository.js';
import { repoUrls, type RepoUrls } from '../presenters/repo-urls.js';

/**
 * How long a call that moves a repository's refs (contents, branch and tag writes) may
 * take. It waits its turn behind the repository's other writers, one at a time, so a
 * burst of them outlasts a read's 10 s; the repository service skips a writer whose
 * caller gave up before its turn, so a timeout never hides a write that landed later.
 */
export const REF_WRITE_DEADLINE_MS = 120_000;

/** Call options for a ref-moving call: the caller and REF_WRITE_DEADLINE_MS. */
export function refWrite(ctx: RouteContext): { caller: RouteContext['caller']; deadlineMs: number } {
  return { caller: ctx.caller, deadlineMs: REF_WRITE_DEADLINE_MS };
}

export function repoRef(ctx: RouteContext): { owner: string; name: string } {
  return { owner: ctx.params.owner, name: ctx.params.repo };
}

/** The repository's html and API URLs: from its stored owner and name when the reply has them (as Gitea's), else the request's. */
export function repoUrlsOf(ctx: RouteContext, stored?: { owner: string; name: string } | null): RepoUrls {
  return repoUrls(ctx.deps.config.rootUrl, stored?.owner || ctx.params.owner, stored?.name || ctx.params.repo);
}

/** The repository and the caller's permission there, from the gateway's cache when fresh. */
export async function resolveRepo(ctx: RouteContext): Promise<repository.RepositoryAccess> {
  const ref = repoRef(ctx);
  return ctx.deps.repositories.get(RepositoryAccessCache.keyOf(ctx.caller, ref.owner, ref.name),
    () => ctx.deps.services.repository.ResolveRepository(ref, { caller: ctx.caller }));
}

/**
 * Call options for a read of git data (contents, branches, commits, trees, tags, languages):
 * the caller and the repository resolved for them (the cache's when fresh), signed into the
 * call's metadata, so the repository service asks PostgreSQL nothing about permissions and
 * the request stays one gRPC call when the resolution is cached.
 */
export async function gitRead(ctx: RouteContext): Promise<{ caller: RouteContext['caller']; repository: repository.RepositoryAccess }> {
  return { caller: ctx.caller, repository: await resolveRepo(ctx) };
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
