// What every request must get right before any route looks at it, so a malformed one is a
// clear 4xx rather than an exception deep inside express or a service:
// - its URL: percent-encoding that does not decode to UTF-8 (`%zz`, `%`, `%ff%fe`) is a 400
//   (Go's net/http refuses a bad escape with 400 too); a NUL anywhere in the path or query
//   is a 422 (PostgreSQL refuses NUL in text, git in names);
// - its JSON body: nesting is counted on the raw bytes before parsing, so a 10,000-deep body
//   is refused without building it (the contract's own walks are iterative as well).
import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { MAX_BODY_DEPTH } from '../contract/validator.js';
import { sendError } from './errors.js';

/** Middleware: 400 for a URL that does not percent-decode, 422 for a NUL in it. */
export function checkRequestUrl(rootUrl: string) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const url = req.url;
    if (url.includes('%') || url.includes('\0')) {
      const problem = urlProblem(url);
      if (problem) return sendError(res, problem.status, problem.message, rootUrl);
    }
    next();
  };
}

function urlProblem(url: string): { status: number; message: string } | undefined {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  let decodedPath: string;
  try {
    decodedPath = decodeURIComponent(path);
  } catch {
    return { status: 400, message: 'invalid URL escape in the request path' };
  }
  if (decodedPath.includes('\0')) return { status: 422, message: 'NUL characters are not allowed in the request path' };
  if (query >= 0) {
    const search = url.slice(query + 1);
    // The query parser tolerates bad escapes (it keeps them as text); only a NUL must not pass.
    if (/%00/.test(search) || search.includes('\0')) return { status: 422, message: 'NUL characters are not allowed in the query' };
  }
  return undefined;
}

/** The error body-parser passes on when `verify` throws; errors.ts answers it with 422. */
export class BodyTooDeep extends Error {
  readonly status = 422;
  readonly type = 'entity.too.deep';
  constructor() {
    super(`[]: DeserializationError: JSON nested deeper than ${MAX_BODY_DEPTH} levels`);
  }
}

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * body-parser's `verify` hook: runs on the raw bytes before JSON.parse and throws when
 * arrays and objects nest deeper than MAX_BODY_DEPTH (brackets inside strings do not count).
 */
export function verifyJsonDepth(_req: IncomingMessage, _res: unknown, buffer: Buffer): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < buffer.length; i++) {
    const byte = buffer[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > MAX_BODY_DEPTH) throw new BodyTooDeep();
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
}
