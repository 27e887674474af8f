// What repository routes share: resolving `/repos/{owner}/{repo}` with the caller's
// permission in one call, and loading the owners a reply presents in one batched call.
import { notFound } from '@anvil/kit';
import type { identity, repository } from '@anvil/proto';
import type { RouteContext } from '../http/route.js';
import { presentRepository } from '../presenters/repository.js';

export function repoRef(ctx: RouteContext): { owner: string; name: string } {
  return { owner: ctx.params.owner, name: ctx.params.repo };
}

export async function resolveRepo(ctx: RouteContext): Promise<repository.RepositoryAccess> {
  return ctx.deps.services.repository.ResolveRepository(repoRef(ctx), { caller: ctx.caller });
}

/** Users by id in one GetUsers call (DataLoader-style batch per request). */
export async function loadUsers(ctx: RouteContext, ids: number[]): Promise<Map<number, identity.User>> {
  const unique = [...new Set(ids.filter((id) => id > 0))];
  if (!unique.length) return new Map();
  const { users } = await ctx.deps.services.identity.GetUsers({ ids: unique, logins: [] }, { caller: ctx.caller });
  return new Map(users.map((u) => [u.id, u]));
}

/** Presents repositories with their owners loaded in one batch; a repository whose owner vanished is skipped. */
export async function presentRepositories(ctx: RouteContext, list: repository.RepositoryAccess[]) {
  const owners = await loadUsers(ctx, list.map((a) => a.repository!.owner_id));
  return list.flatMap((access) => {
    const owner = owners.get(access.repository!.owner_id);
    return owner ? [presentRepository(access, owner, ctx.caller, ctx.deps.config.rootUrl)] : [];
  });
}

export async function presentOne(ctx: RouteContext, access: repository.RepositoryAccess) {
  const [presented] = await presentRepositories(ctx, [access]);
  if (!presented) throw notFound('The target couldn\'t be found.', 'owner_not_found');
  return presented;
}
