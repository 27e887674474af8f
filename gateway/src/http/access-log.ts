// One access log line per request at info: method, path (never the query string, which may
// carry `?token=`), status, duration, the signed-in user and a trace id, the one from the
// client's W3C `traceparent` or `X-Request-Id` when it sent one, so a request can be followed
// into the services' logs.
import { randomBytes } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '@anvil/kit';
import type { AuthState } from '../auth/authenticate.js';

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The request's trace id: from `traceparent`, else `X-Request-Id`, else a new one. */
export function traceIdOf(headers: Record<string, string | string[] | undefined>): string {
  const parent = TRACEPARENT.exec(String(headers.traceparent ?? ''));
  if (parent) return parent[1]!;
  const requestId = String(headers['x-request-id'] ?? '');
  return REQUEST_ID.test(requestId) ? requestId : randomBytes(16).toString('hex');
}

/** The request path without its query string. */
export function loggedPath(originalUrl: string): string {
  const query = originalUrl.indexOf('?');
  return query < 0 ? originalUrl : originalUrl.slice(0, query);
}

export function accessLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const trace = traceIdOf(req.headers);
    res.locals.traceId = trace;
    res.once('close', () => {
      const auth = res.locals.auth as AuthState | undefined;
      log.info({
        method: req.method,
        path: loggedPath(req.originalUrl),
        status: res.statusCode,
        ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        user: auth?.caller.login || undefined,
        trace,
      }, 'request');
    });
    next();
  };
}
