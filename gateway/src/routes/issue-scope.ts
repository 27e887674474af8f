// What the routes of collaboration's repository areas share: the repository resolved once
// (the gateway's cache) and sent to collaboration in the signed metadata with the caller's
// permission, so collaboration never asks the repository service again. The permission the
// route needs is its `repoAccess`, checked before the handler runs (http/repo-access.ts).
import type { CallOptions } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import type { Reply, RouteContext } from '../http/route.js';
import type { IssueRepository } from '@anvil/presenters/issue.js';
import { resolveRepo } from './repo-context.js';

export interface RepositoryCall {
  access: repository.RepositoryAccess;
  /** RepositoryMeta for the JSON, from the repository's stored owner and name. */
  repo: IssueRepository;
  /** Call options carrying the caller and the resolved repository. */
  options: CallOptions;
}

/** Wraps a handler: hand it the route's repository and the call options carrying it. */
export function inRepository(handle: (ctx: RouteContext, call: RepositoryCall) => Promise<Reply>) {
  return async (ctx: RouteContext): Promise<Reply> => {
    const access = await resolveRepo(ctx);
    const r = access.repository!;
    return handle(ctx, { access, repo: { id: r.id, owner: r.owner_login, name: r.name }, options: { caller: ctx.caller, repository: access } });
  };
}
