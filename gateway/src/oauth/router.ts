// The OAuth2 provider endpoints outside /api/v1, at Gitea's paths: /login/oauth/authorize,
// /login/oauth/access_token and /login/oauth/userinfo.
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { verifyJsonDepth } from '../http/request-hygiene.js';
import type { Deps } from '../http/route.js';
import { authorizeHandler } from './authorize.js';
import { sendOAuth2Error } from './errors.js';
import { tokenHandler } from './token.js';
import { userinfoHandler } from './userinfo.js';

export function oauth2Router(deps: Deps): Router {
  const router = express.Router();
  router.get('/login/oauth/authorize', authorizeHandler(deps));
  router.post(
    '/login/oauth/access_token',
    express.urlencoded({ extended: false, limit: '64kb' }),
    express.json({ limit: '64kb', verify: verifyJsonDepth }),
    tokenHandler(deps),
  );
  router.get('/login/oauth/userinfo', userinfoHandler(deps));
  router.post('/login/oauth/userinfo', userinfoHandler(deps));
  // A body the parsers refuse is the client's mistake, told in OAuth2's shape.
  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    const type = (err as { type?: string })?.type;
    if (typeof type !== 'string' || !type.startsWith('entity.') && !type.endsWith('.unsupported')) return next(err);
    sendOAuth2Error(res, type === 'entity.too.large' ? 413 : 400, { error: 'invalid_request', error_description: (err as Error).message });
  });
  return router;
}
