// The one place that turns failures into Gitea's error shape (DESIGN.md §1):
// `{"message": "...", "url": "<ROOT_URL>api/swagger"}`, a 404 adding `"errors": []`.
// Services raise DomainErrors with a kind and a reason; the kind picks the status unless
// the route names a different one for that reason (Gitea's statuses are not uniform).
import type { NextFunction, Request, Response } from 'express';
import { DomainError, type ErrorKind, type Logger } from '@anvil/kit';
import type { Answer } from '../caches/answers.js';

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const STATUS_OF_KIND: Record<ErrorKind, number> = {
  invalid: 422,
  bad_request: 400,
  not_found: 404,
  already_exists: 409,
  conflict: 409,
  forbidden: 403,
  unauthenticated: 401,
  too_large: 413,
  unavailable: 503,
};

/** Per-route overrides: reason (or kind) → HTTP status, e.g. `{ token_name_taken: 400 }`. */
export type StatusOverrides = Record<string, number>;

export function errorBody(status: number, message: string, rootUrl: string): Record<string, unknown> {
  const body: Record<string, unknown> = { message, url: `${rootUrl}api/swagger` };
  if (status === 404) body.errors = [];
  return body;
}

/** An error as a remembered answer (caches/answer-shortcuts.ts): the bytes sendError sends. */
export function errorAnswer(status: number, message: string, rootUrl: string): Answer {
  return { status, headers: { 'content-type': 'application/json;charset=utf-8' }, body: Buffer.from(JSON.stringify(errorBody(status, message, rootUrl))) };
}

export function sendError(res: Response, status: number, message: string, rootUrl: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const payload = JSON.stringify(errorBody(status, message, rootUrl));
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

export function statusOf(err: unknown, overrides: StatusOverrides = {}): number {
  if (err instanceof ApiError) return err.status;
  if (err instanceof DomainError) return overrides[err.reason] ?? overrides[err.kind] ?? STATUS_OF_KIND[err.kind];
  return 500;
}

/**
 * The message a client sees: a 4xx says what was wrong; a 5xx never shows internals, but a
 * 503 (a service down or restarting) says that retrying may help.
 */
export function publicMessage(status: number, err: unknown): string {
  if (status === 503) return 'service temporarily unavailable, try again later';
  return status >= 500 ? 'internal server error' : (err as Error).message;
}

/**
 * Logs a 5xx. A 503 — a service not up yet (start-up) or restarting — is expected and says
 * so in one line; anything else is a bug and keeps its stack.
 */
export function logFailure(log: Logger, status: number, err: unknown, context: Record<string, unknown>): void {
  if (status === 503) log.warn({ ...context, reason: (err as Error)?.message }, 'service unavailable; answered 503');
  else if (status >= 500) log.error({ err, ...context }, 'request failed');
}

/** Express error handler of last resort: body-parser failures, then anything unexpected. */
export function errorHandler(rootUrl: string, log: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const e = err as { type?: string; status?: number; message?: string };
    if (e?.type === 'entity.too.large') return sendError(res, 413, 'request body too large', rootUrl);
    if (e?.type === 'entity.parse.failed') return sendError(res, 422, `[]: DeserializationError: ${e.message}`, rootUrl);
    if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') return sendError(res, 415, e.message ?? 'unsupported encoding', rootUrl);
    // What express and body-parser raise for the request itself (a parameter that does not
    // percent-decode is a URIError with status 400, a body nested too deep a 422): the
    // client's fault, so its 4xx, never a 500.
    if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500 && !(err instanceof DomainError)) {
      return sendError(res, e.status, e.message ?? 'bad request', rootUrl);
    }
    const status = statusOf(err);
    logFailure(log, status, err, { method: req.method, path: req.path });
    sendError(res, status, publicMessage(status, err), rootUrl);
  };
}
