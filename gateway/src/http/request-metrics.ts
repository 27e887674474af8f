// Counts and times every HTTP request in the process's metrics (anvil_http_requests_total,
// anvil_http_request_duration_seconds), labelled by the route's template so that a path
// full of names adds no new series.
import type { RequestHandler } from 'express';
import { recordHttpRequest } from '@anvil/kit';

export function countRequests(): RequestHandler {
  return (req, res, next) => {
    const started = performance.now();
    res.once('close', () => {
      const route = (req.route as { path?: string } | undefined)?.path;
      recordHttpRequest(req.method, route ? `${req.baseUrl}${route}` : 'unmatched', res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  };
}
