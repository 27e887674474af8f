// One access log line per request at info: method, path (never the query string, which may
// carry `?token=`), status, duration, the signed-in user and a trace id, the one from the
// client's W3C `traceparent` or `X-Request-Id` when it sent one, so a request can be followed
// into the services' logs.
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '@anvil/kit';
import type { AuthState } from '../auth/authenticate.js';

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/**
 * The request's trace id: from `traceparent`, else `X-Request-Id`, else a new one: 32 hex
 * digits of a random UUID, which node draws from a buffer of entropy it refills now and
 * then (randomBytes per request was a call into OpenSSL each, 3 % of the gateway's CPU).
 */
export function traceIdOf(headers: Record<string, string | string[] | undefined>): string {
  const traceparent = headers.traceparent;
  if (traceparent !== undefined) {
    const parent = TRACEPARENT.exec(String(traceparent));
    if (parent) return parent[1]!;
  }
  const requestId = headers['x-request-id'];
  if (requestId !== undefined && REQUEST_ID.test(String(requestId))) return String(requestId);
  return randomUUID().replaceAll('-', '');
}

/** The request path without its query string. */
export function loggedPath(originalUrl: string): string {
  const query = originalUrl.indexOf('?');
  return query < 0 ? originalUrl : originalUrl.slice(0, query);
}

export function accessLog(log: Logger): RequestHandler {
  return (req, res, next) => {
    // Nothing to write at a level above info (ANVIL_LOG_LEVEL=warn): no timing, no listener.
    if (!log.isLevelEnabled('info')) return next();
    const started = process.hrtime.bigint();
    const trace = traceIdOf(req.headers);
    res.locals.traceId = trace;
    res.once('close', () => {
      const auth = res.locals.auth as AuthState | undefined;
      logRequest(log, req.method, req.originalUrl, res.statusCode, started, auth?.caller.login, trace);
    });
    next();
  };
}

/** The line itself (also written by remembered-first.ts, which answers without express). */
export function logRequest(log: Logger, method: string, url: string, status: number, started: bigint, user: string | undefined, trace: string): void {
  log.info({
    method,
    path: loggedPath(url),
    status,
    ms: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
    user: user || undefined,
    trace,
  }, 'request');
}
