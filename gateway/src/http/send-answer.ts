// Sends a remembered answer (caches/answers.ts): as a 304 when the client already holds it,
// gzipped when it takes gzip and the answer was sent before, else as it was computed. On a
// plain node request and response, so the route table (route.ts) and the remembered-first
// listener (remembered-first.ts) send an answer the same way.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Answer } from '../caches/answers.js';
import { bodyFor, compressible, goesGzipped, sameEntityTag, weakened } from './answer-encoding.js';

/**
 * Whether a conditional request already holds `answer` (its ETag, else its Last-Modified), as
 * the side channel would have said for a raw file it answered itself.
 */
function stillFresh(req: IncomingMessage, answer: Answer): boolean {
  const etag = answer.headers.etag;
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch !== undefined) return etag !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || sameEntityTag(tag, etag));
  const lastModified = answer.headers['last-modified'];
  const ifModifiedSince = req.headers['if-modified-since'];
  return lastModified !== undefined && ifModifiedSince !== undefined && Date.parse(ifModifiedSince) >= Date.parse(lastModified);
}

/** Sends a remembered (or just computed) answer; headers the route set are in it. */
export function sendAnswer(req: IncomingMessage, res: ServerResponse, answer: Answer): void {
  if (res.headersSent) return;
  if (stillFresh(req, answer)) {
    for (const name of ['etag', 'last-modified', 'cache-control']) if (answer.headers[name] !== undefined) res.setHeader(name, answer.headers[name]!);
    if (goesGzipped(req, answer)) {
      res.setHeader('vary', 'Accept-Encoding');
      if (answer.headers.etag !== undefined) res.setHeader('etag', weakened(answer.headers.etag));
    }
    res.writeHead(304).end();
    return;
  }
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  if (compressible(answer)) {
    res.setHeader('vary', 'Accept-Encoding');
    const { body, gzip } = bodyFor(req, answer);
    if (gzip) {
      res.setHeader('content-encoding', 'gzip');
      if (answer.headers.etag !== undefined) res.setHeader('etag', weakened(answer.headers.etag));
    }
    res.setHeader('content-length', body.length);
    res.writeHead(answer.status);
    res.end(body);
    return;
  }
  res.setHeader('content-length', answer.body.length);
  res.writeHead(answer.status);
  res.end(answer.body);
}
