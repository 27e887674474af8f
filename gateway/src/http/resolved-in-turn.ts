// Marks, on arrival, a request for a `resolvedInTurn` route (route.ts): its service resolves
// the repository and the caller's permission itself, in its write turn. The gateway's write
// tracking (caches/repository-access.ts trackWrites) runs before any route is matched, and
// needs to know this to keep the remembered resolution the route's guards may answer from.
// The routes are matched by an express Router of their own, so the mark follows express's
// matching of the same paths exactly.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Route } from './route.js';

/** Middleware setting `res.locals.resolvedInTurn` for a request one of `routes`' `resolvedInTurn` routes takes. */
export function markResolvedInTurn(routes: readonly Route[]): RequestHandler {
  const router = express.Router({ caseSensitive: false, strict: false });
  const mark = (_req: Request, res: Response, next: NextFunction) => {
    res.locals.resolvedInTurn = true;
    next();
  };
  const methods = new Set<string>();
  for (const route of routes) {
    if (!route.resolvedInTurn) continue;
    router[route.method.toLowerCase() as 'post'](route.path, mark);
    methods.add(route.method);
  }
  // Only requests of those methods are matched at all: a read passes straight through.
  return (req, res, next) => (methods.has(req.method) ? router(req, res, next) : next());
}
