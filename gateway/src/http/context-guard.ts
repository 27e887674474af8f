// Gitea resolves a route's repository (repoAssignment) or organization (orgAssignment)
// before reqToken and the scope check, so a caller who may not see it gets 404 whatever
// else the request lacks: a stranger learns nothing from a 401 or 403. The route table
// asks here only when it is about to refuse, so an allowed request pays nothing extra.
import type { Caller } from '@anvil/kit';
import { statusOf } from './errors.js';
import type { Deps } from './route.js';

type Lookup = (deps: Deps, caller: Caller, params: Record<string, string>) => Promise<unknown>;

// Repository routes resolve their repository before every guard instead (`repoAccess`,
// repo-access.ts), so only organization routes are looked up here.
const LOOKUPS: Array<{ path: RegExp; lookup: Lookup }> = [
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

const ORG_ROUTE = /^\/orgs?\/:org(\/|$)/;

/**
 * Gitea's reqToken for a `public-only` token on an organization route: an organization that
 * is not public is refused with 403 (a repository's service answers the same for a private
 * repository). Undefined for routes this does not apply to; the check answers the refusal
 * message, or undefined to go on.
 */
export function publicOnlyGuardOf(routePath: string, scopes: readonly string[]): ((deps: Deps, caller: Caller, params: Record<string, string>) => Promise<string | undefined>) | undefined {
  if (!ORG_ROUTE.test(routePath) || !scopes.includes('organization')) return undefined;
  return async (deps, caller, { org }) => {
    if (!caller.scopes.includes('public-only')) return undefined;
    // Asked as the token's holder would be without the limit: an organization they could
    // not see anyway stays not found (the route answers that), one they could is refused.
    const holder = { ...caller, scopes: caller.scopes.filter((s) => s !== 'public-only') };
    try {
      const view = await deps.services.orgs.GetOrg({ name: org! }, { caller: holder });
      return view.org?.account?.visibility === 'VISIBILITY_PUBLIC' ? undefined : 'token scope is limited to public orgs';
    } catch {
      return undefined;
    }
  };
}
