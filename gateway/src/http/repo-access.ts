// Gitea's repository guards (routers/api/v1/api.go), declared once per route as `repoAccess`
// and checked here, once, with Gitea's messages: repoAssignment resolves the repository
// first (one the caller may not see is a 404 whatever else the request lacks), then the
// route's reqToken and scopes, then reqRepoReader / reqRepoWriter / reqAdmin / reqOwner.
// The resolution then travels to the services in the signed gRPC metadata, so no service
// re-derives the caller's permission (DESIGN.md §3).
//
// Anvil keeps one access mode per repository (no per-unit modes), so Gitea's
// reqRepoReader(unit.TypeCode) and reqRepoWriter(unit.TypeIssues) are `read` and `write`.
import { atLeast, type Caller } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import { RepositoryAccessCache } from '../caches/repository-access.js';
import { ApiError } from './errors.js';
import type { Deps } from './route.js';

/**
 * What a `/repos/{owner}/{repo}/...` route needs of its caller there:
 * - `read`: may see the repository (Gitea's repoAssignment, reqRepoReader, reqAnyRepoReader);
 * - `write`: reqRepoWriter;
 * - `admin`: reqAdmin (repository admins, owners, site admins);
 * - `owner`: reqOwner (the owner, an organization owner, a site admin).
 */
export type RepoAccess = 'read' | 'write' | 'admin' | 'owner';

const REFUSALS: Record<RepoAccess, string> = {
  read: 'user should have specific read permission or be a repo admin or a site admin',
  write: 'user should have a permission to write to a repo',
  admin: 'user should be an owner or a collaborator with admin write of a repository',
  owner: 'user should be the owner of the repo',
};

/**
 * The repository a route's path names, resolved for the caller (the gateway's cache when
 * fresh). `figures`: false when the request shows nothing of the repository's size,
 * updated_at or counts (a git read's guards), which then may be older than the last push.
 */
export function resolveRouteRepository(deps: Deps, caller: Caller, owner: string, name: string, figures = true): Promise<repository.RepositoryAccess> {
  return deps.repositories.get(RepositoryAccessCache.keyOf(caller, owner, name),
    () => deps.services.repository.ResolveRepository({ owner, name }, { caller }), figures);
}

/** Gitea's 403 when the caller's permission is below what the route needs; undefined when it is enough. */
export function repoAccessRefusal(wanted: RepoAccess, access: repository.RepositoryAccess, caller: Caller): ApiError | undefined {
  // Site administrators pass every repository guard (the resolved mode already says admin;
  // reqOwner lets them through too).
  if (atLeast(access.permission, wanted) || (caller.isAdmin && caller.userId > 0)) return undefined;
  return new ApiError(403, REFUSALS[wanted]);
}
