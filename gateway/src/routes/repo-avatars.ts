// Repository avatars (routers/api/v1/repo/avatar.go): repository admins upload one as base64
// (`image`) or remove it, both 204 as Gitea 1.27 answers; the repository service checks the
// image (422 when it is no PNG, JPEG, GIF or WebP within the size limits; Gitea answers 500)
// and keeps it. The Repository JSON's avatar_url names it under Gitea's web path
// `/repo-avatars/{name}`, served here to anyone (as Gitea's storage serves it).
import { ANONYMOUS } from '@anvil/kit';
import type { Request, Response } from 'express';
import { ApiError, logFailure, publicMessage, sendError, statusOf } from '../http/errors.js';
import { noContent, type Deps, type Route } from '../http/route.js';
import { repoCall, repoRef } from './repo-context.js';

/** Go's base64.StdEncoding: padded, the standard alphabet, nothing else (Gitea answers 400 otherwise). */
function decodeStdBase64(text: string): Buffer | undefined {
  if (text.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return undefined;
  return Buffer.from(text, 'base64');
}

export const repoAvatarRoutes: Route[] = [
  {
    method: 'POST', path: '/repos/:owner/:repo/avatar', operationId: 'repoUpdateAvatar', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    async handle(ctx) {
      const image = decodeStdBase64((ctx.body as { image?: string }).image ?? '');
      if (!image) throw new ApiError(400, 'illegal base64 data in image');
      await ctx.deps.services.avatars.SetAvatar({ ref: repoRef(ctx), image }, repoCall(ctx));
      return noContent();
    },
  },
  {
    method: 'DELETE', path: '/repos/:owner/:repo/avatar', operationId: 'repoDeleteAvatar', access: 'signed', scopes: ['repository'],
    repoAccess: 'admin',
    async handle(ctx) {
      await ctx.deps.services.avatars.DeleteAvatar(repoRef(ctx), repoCall(ctx));
      return noContent();
    },
  },
];

/** GET /repo-avatars/{name}: the image itself; names are content hashes, so it may be cached. */
export function serveRepositoryAvatar(deps: Deps) {
  const rootUrl = deps.config.rootUrl;
  return async (req: Request, res: Response) => {
    try {
      const image = await deps.services.avatars.GetAvatar({ name: String(req.params.name ?? '') }, { caller: ANONYMOUS });
      res.writeHead(200, {
        'content-type': image.content_type, 'content-length': image.data.length,
        'cache-control': 'public, max-age=21600', 'x-content-type-options': 'nosniff',
      });
      res.end(image.data);
    } catch (err) {
      const status = statusOf(err);
      logFailure(deps.log, status, err, { route: 'repoAvatar' });
      sendError(res, status, publicMessage(status, err), rootUrl);
    }
  };
}
