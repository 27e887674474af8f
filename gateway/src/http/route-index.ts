// Routes indexed by their literal path segments. Express tries its layers one by one, so with
// every API area in one router each request ran a few hundred path matches before reaching
// its own (a tenth of the gateway's CPU on GET /repos/{owner}/{repo}, and still a sixth of it
// with one router per first segment, since `/repos/...` alone holds some 300 routes). Here a
// route whose path starts with a literal segment (`/repos/...`, `/user/...`) lives in a small
// express Router of its own, picked by one middleware from the request's first segment; inside
// it the routes are split again on their next literal segment after parameters
// (`/repos/:owner/:repo/branches...` → `branches`). Matching, params, HEAD-as-GET and error
// handling stay express's own. A route the split cannot place (a parameter first, or no
// literal after the parameters, as `/repos/:owner/:repo`) is registered where it stands, in
// order, and ends the run of indexed routes before it, so the order of matching is kept.
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Method } from './route.js';

const LITERAL = /^[A-Za-z0-9_.-]+$/;
const PARAMETER = /^:[A-Za-z0-9_]+$/;

/** Where a route is indexed: the position of a literal segment (0 = the first) and the segment. */
interface IndexKey {
  position: number;
  segment: string;
}

/** The literal first segment of an express path, or undefined when it is a parameter or pattern. */
export function literalFirstSegment(path: string): string | undefined {
  return firstLiteral(path, 0)?.segment;
}

/**
 * The first literal segment at or after `from`, past plain parameters only (a pattern or a
 * literal in between leaves the route unindexed at this level).
 */
function firstLiteral(path: string, from: number): IndexKey | undefined {
  const parts = path.split('/').slice(1);
  for (let position = from; position < parts.length; position++) {
    const part = parts[position]!;
    if (LITERAL.test(part)) return { position, segment: part };
    if (!PARAMETER.test(part)) return undefined;
  }
  return undefined;
}

/** Segment `position` of a request path (`/repos/a/b/branches`, 3 → `branches`). */
function requestSegment(path: string, position: number): string {
  let start = 1;
  for (let i = 0; i < position; i++) {
    const slash = path.indexOf('/', start);
    if (slash < 0) return '';
    start = slash + 1;
  }
  const end = path.indexOf('/', start);
  return path.slice(start, end < 0 ? undefined : end);
}

export interface RouteIndex {
  add(method: Method, path: string, handlers: RequestHandler[]): void;
}

/**
 * Registers routes into `parent` through per-segment Routers: on the first segment, and
 * within each of those on the next literal segment after parameters. Order is kept: a run
 * of routes indexed at one position shares one index middleware placed where the run
 * starts; a route that cannot be indexed there is registered on `parent` directly and ends
 * the run.
 */
export function routeIndex(parent: Router): RouteIndex {
  return indexAt(parent, 0);
}

/** A bucket's own routes, in order. */
function routesOf(router: Router): RouteIndex {
  return { add: (method, path, handlers) => void router[method.toLowerCase() as 'get'](path, ...handlers) };
}

interface Run {
  position: number;
  routers: Map<string, Router>;
  buckets: Map<string, RouteIndex>;
}

function indexAt(parent: Router, level: 0 | 1): RouteIndex {
  const caseSensitive = Boolean((parent as unknown as { caseSensitive?: boolean }).caseSensitive);
  const strict = Boolean((parent as unknown as { strict?: boolean }).strict);
  const keyOf = (segment: string) => (caseSensitive ? segment : segment.toLowerCase());
  let run: Run | undefined;

  function openRun(position: number): Run {
    const routers = new Map<string, Router>();
    parent.use((req: Request, res: Response, next: NextFunction) => {
      // No route answers OPTIONS; letting it through keeps express's inner routers from
      // answering it with an automatic Allow list (the API's 404 answers it, as before).
      if (req.method === 'OPTIONS') return next();
      const bucket = routers.get(keyOf(requestSegment(req.path, position)));
      if (!bucket) return next();
      bucket(req, res, next);
    });
    return (run = { position, routers, buckets: new Map() });
  }

  function bucketOf(current: Run, segment: string): RouteIndex {
    const key = keyOf(segment);
    let bucket = current.buckets.get(key);
    if (!bucket) {
      const router = express.Router({ caseSensitive, strict });
      current.routers.set(key, router);
      // The first level's buckets are split once more; the second level's hold their routes.
      bucket = level === 0 ? indexAt(router, 1) : routesOf(router);
      current.buckets.set(key, bucket);
    }
    return bucket;
  }

  return {
    add(method, path, handlers) {
      const key = firstLiteral(path, level);
      if (!key || (level === 0 && key.position !== 0)) {
        run = undefined;
        parent[method.toLowerCase() as 'get'](path, ...handlers);
        return;
      }
      const current = run && run.position === key.position ? run : openRun(key.position);
      bucketOf(current, key.segment).add(method, path, handlers);
    },
  };
}
