// Safety rules that span services: identity deletes users and organizations but cannot see
// repositories, so the gateway asks repository first and refuses as Gitea does
// (services/user/delete.go, services/org/org.go: ErrUserOwnRepos).
import { DomainError } from '@anvil/kit';
import { ApiError } from '../http/errors.js';
import type { RouteContext } from '../http/route.js';

/** How many repositories the owner has; an owner repository never heard of has none. */
async function ownedRepositories(ctx: RouteContext, key: { id: number } | { login: string }): Promise<{ ownerId: number; count: number }> {
  try {
    const reply = await ctx.deps.services.repository.CountOwnedRepositories(key, { caller: ctx.caller });
    return { ownerId: Number(reply.owner_id), count: Number(reply.count) };
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'not_found') return { ownerId: 'id' in key ? key.id : 0, count: 0 };
    throw err;
  }
}

/** 422 "user still has ownership of repositories [uid: N]" while the owner has any. */
export async function refuseWhileOwningRepositories(ctx: RouteContext, key: { id: number } | { login: string }): Promise<void> {
  const { ownerId, count } = await ownedRepositories(ctx, key);
  if (count > 0) throw new ApiError(422, `user still has ownership of repositories [uid: ${ownerId}]`);
}
