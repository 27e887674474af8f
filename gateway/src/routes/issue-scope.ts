// What the routes of collaboration's repository areas share: the repository resolved once
// (the gateway's cache) and sent to collaboration in the signed metadata with the caller's
// permission, so collaboration never asks the repository service again. A repository the
// caller may not see is a 404 before anything else; a caller below the route's permission
// is a 403 (its visibility already settled).
import { atLeast, forbidden } from '@anvil/kit';
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

/** Wraps a handler: resolve the repository, require `permission` there, then handle. */
export function inRepository(permission: 'read' | 'write' | 'admin', handle: (ctx: RouteContext, call: RepositoryCall) => Promise<Reply>) {
  return async (ctx: RouteContext): Promise<Reply> => {
    const access = await resolveRepo(ctx);
    if (!atLeast(access.permission, permission)) {
      throw forbidden('user should have a permission to write to a repo', 'repo_permission_denied');
    }
    const r = access.repository!;
    return handle(ctx, { access, repo: { id: r.id, owner: r.owner_login, name: r.name }, options: { caller: ctx.caller, repository: access } });
  };
}
