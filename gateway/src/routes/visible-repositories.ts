// The repositories among a page's ids that the caller may see, for lists that name
// repositories by id (notifications, tracked times, stopwatches): one SearchRepositories
// call per 1,000 ids, never a call per entry.
import type { repository } from '@anvil/proto';
import type { RouteContext } from '../http/route.js';

/** The repository service's largest page. */
const MAX_IDS_PER_CALL = 1000;

/** The repositories among `ids` the caller may see: one call (one per 1,000 repositories). */
export async function visibleRepositories(ctx: RouteContext, ids: number[]): Promise<Map<number, repository.RepositoryAccess>> {
  const unique = [...new Set(ids)];
  const visible = new Map<number, repository.RepositoryAccess>();
  for (let start = 0; start < unique.length; start += MAX_IDS_PER_CALL) {
    const chunk = unique.slice(start, start + MAX_IDS_PER_CALL);
    const reply = await ctx.deps.services.repository.SearchRepositories({
      q: '', sort: '', order: '', visibility: '', archived: '', mode: '', owner_login: '', ids: chunk, page: { page: 1, limit: chunk.length },
    }, { caller: ctx.caller });
    for (const r of reply.repositories) visible.set(Number(r.repository!.id), r);
  }
  return visible;
}

