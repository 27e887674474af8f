// Routes indexed by their first path segment. Express tries its layers one by one, so with
// every API area in one router each request ran a few hundred path matches before reaching
// its own (a tenth of the gateway's CPU on GET /repos/{owner}/{repo}). Here a route whose
// path starts with a literal segment (`/repos/...`, `/user/...`) lives in a small express
// Router of its own, and one middleware picks that Router from the request's first segment:
// matching, params, HEAD-as-GET and error handling stay express's own. Routes starting with
// a parameter (`/:owner/:repo/archive/...`) stay in the parent router, in order.
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Method } from './route.js';

/** The literal first segment of an express path, or undefined when it is a parameter or pattern. */
export function literalFirstSegment(path: string): string | undefined {
  const end = path.indexOf('/', 1);
  const segment = path.slice(1, end < 0 ? undefined : end);
  return segment && /^[A-Za-z0-9_.-]+$/.test(segment) ? segment : undefined;
}

/** The first segment of a request path (`/repos/a/b` → `repos`). */
function requestFirstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return path.slice(1, end < 0 ? undefined : end);
}

export interface RouteIndex {
  add(method: Method, path: string, handlers: RequestHandler[]): void;
}

/**
 * Registers routes into `parent` through per-segment Routers. Order is kept: a run of
 * literal routes shares one index middleware placed where the run starts; a parameter-first
 * route is registered on `parent` directly and ends the run.
 */
export function routeIndex(parent: Router): RouteIndex {
  const caseSensitive = Boolean((parent as unknown as { caseSensitive?: boolean }).caseSensitive);
  const strict = Boolean((parent as unknown as { strict?: boolean }).strict);
  let buckets: Map<string, Router> | undefined;

  function openRun(): Map<string, Router> {
    const run = new Map<string, Router>();
    parent.use((req: Request, res: Response, next: NextFunction) => {
      // No route answers OPTIONS; letting it through keeps express's inner routers from
      // answering it with an automatic Allow list (the API's 404 answers it, as before).
      if (req.method === 'OPTIONS') return next();
      const segment = requestFirstSegment(req.path);
      const bucket = run.get(caseSensitive ? segment : segment.toLowerCase());
      if (!bucket) return next();
      bucket(req, res, next);
    });
    return run;
  }

  return {
    add(method, path, handlers) {
      const segment = literalFirstSegment(path);
      if (segment === undefined) {
        buckets = undefined;
        parent[method.toLowerCase() as 'get'](path, ...handlers);
        return;
      }
      buckets ??= openRun();
      const key = caseSensitive ? segment : segment.toLowerCase();
      let bucket = buckets.get(key);
      if (!bucket) buckets.set(key, (bucket = express.Router({ caseSensitive, strict })));
      bucket[method.toLowerCase() as 'get'](path, ...handlers);
    },
  };
}
