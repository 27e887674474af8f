// Push mirrors (routers/api/v1/repo/mirror.go): list, add, get, delete, and push to all now.
// Repository admins only; the repository service checks that and the remote's address.
import { created, noContent, ok, type Reply, type Route } from '../http/route.js';
import type { repository } from '@anvil/proto';
import { repoCall, repoRef } from './repo-context.js';

/** Pushing to every push mirror runs inside the request, as Gitea's sync does. */
const PUSH_DEADLINE_MS = 30 * 60_000;

function present(mirror: repository.PushMirror) {
  return {
    repo_name: mirror.repo_name, remote_name: mirror.remote_name, remote_address: mirror.remote_address, created: mirror.created,
    ...(mirror.last_update ? { last_update: mirror.last_update } : {}), last_error: mirror.last_error, interval: mirror.interval, sync_on_commit: mirror.sync_on_commit,
  };
}

// Gitea answers a disabled feature and bad input on these routes with 400.
const OVERRIDES = { mirrors_disabled: 400, invalid_mirror_interval: 400, remote_refused: 400, invalid_clone_addr: 400, invalid_clone_protocol: 400 };

export const repoPushMirrorRoutes: Route[] = [
  {
    method: 'GET', path: '/repos/:owner/:repo/push_mirrors', operationId: 'repoListPushMirrors', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    statusOverrides: OVERRIDES,
    async handle(ctx): Promise<Reply> {
      const { page, limit } = ctx.page();
      const reply = await ctx.deps.services.pushMirrors.ListPushMirrors({ ref: repoRef(ctx), page: { page, limit } }, repoCall(ctx));
      return ok(reply.mirrors.map(present), Number(reply.total));
    },
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/push_mirrors', operationId: 'repoAddPushMirror', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    statusOverrides: OVERRIDES,
    async handle(ctx): Promise<Reply> {
      const b = ctx.body as { remote_address?: string; remote_username?: string; remote_password?: string; interval?: string; sync_on_commit?: boolean };
      const mirror = await ctx.deps.services.pushMirrors.CreatePushMirror({
        ref: repoRef(ctx), remote_address: b.remote_address ?? '', remote_username: b.remote_username ?? '', remote_password: b.remote_password ?? '',
        interval: b.interval ?? '', sync_on_commit: b.sync_on_commit ?? false,
      }, repoCall(ctx));
      // Gitea answers 200 here, not 201.
      return { ...created(present(mirror)), status: 200 };
    },
  },
  {
    method: 'GET', path: '/repos/:owner/:repo/push_mirrors/:name', operationId: 'repoGetPushMirrorByRemoteName', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    statusOverrides: OVERRIDES,
    async handle(ctx): Promise<Reply> {
      return ok(present(await ctx.deps.services.pushMirrors.GetPushMirror({ ref: repoRef(ctx), name: ctx.params.name }, repoCall(ctx))));
    },
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/push_mirrors/:name', operationId: 'repoDeletePushMirror', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    statusOverrides: OVERRIDES,
    async handle(ctx): Promise<Reply> {
      await ctx.deps.services.pushMirrors.DeletePushMirror({ ref: repoRef(ctx), name: ctx.params.name }, repoCall(ctx));
      return noContent();
    },
  },
  {
    method: 'POST', path: '/repos/:owner/:repo/push_mirrors-sync', operationId: 'repoPushMirrorSync', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    statusOverrides: { mirrors_disabled: 400 },
    async handle(ctx): Promise<Reply> {
      await ctx.deps.services.pushMirrors.SyncPushMirrors(repoRef(ctx), { caller: ctx.caller, deadlineMs: PUSH_DEADLINE_MS });
      return { status: 200 };
    },
  },
];
