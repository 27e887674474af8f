// Gitea resolves a route's repository (repoAssignment) or organization (orgAssignment)
// before reqToken and the scope check, so a caller who may not see it gets 404 whatever
// else the request lacks: a stranger learns nothing from a 401 or 403. The route table
// asks here only when it is about to refuse, so an allowed request pays nothing extra.
import type { Caller } from '@anvil/kit';
import { RepositoryAccessCache } from '../caches/repository-access.js';
import { statusOf } from './errors.js';
import type { Deps } from './route.js';

type Lookup = (deps: Deps, caller: Caller, params: Record<string, string>) => Promise<unknown>;

const LOOKUPS: Array<{ path: RegExp; lookup: Lookup }> = [
  {
    path: /^\/repos\/:owner\/:repo(\/|$)/,
    lookup: (deps, caller, { owner, repo }) => deps.repositories.get(RepositoryAccessCache.keyOf(caller, owner!, repo!),
      () => deps.services.repository.ResolveRepository({ owner: owner!, name: repo! }, { caller })),
  },
  {
    path: /^\/orgs?\/:org(\/|$)/,
    lookup: (deps, caller, { org }) => deps.services.orgs.GetOrg({ name: org! }, { caller }),
  },
];

/** For a route path: whether the caller cannot see its repository or organization, if it has one. */
export function contextGuardOf(routePath: string): ((deps: Deps, caller: Caller, params: Record<string, string>) => Promise<boolean>) | undefined {
  const found = LOOKUPS.find((l) => l.path.test(routePath));
  if (!found) return undefined;
  return async (deps, caller, params) => {
    try {
      await found.lookup(deps, caller, params);
      return false;
    } catch (err) {
      return statusOf(err) === 404;
    }
  };
}
