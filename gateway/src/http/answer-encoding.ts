// gzip for remembered answers (caches/answers.ts), for clients that ask for it: Go's
// net/http (tea, the Go SDK) and browsers send `Accept-Encoding: gzip` and unpack it without
// the caller noticing. A page of 50 pulls is ~310 KiB of JSON (each pull carries its base and
// head repositories in full) and ~15 KiB gzipped, so an answer served many times is
// compressed once and every later send writes a twentieth of the bytes.
//
// Only answers served a second time are compressed: one that is computed, sent once and
// dropped would cost a compression for nothing. The compressed body is kept beside the
// plain one in the same entry, so it lives and dies with it (and it is only kept when it is
// smaller). Other replies (not remembered) go out as they are: compressing them would cost
// on every request what it saves on the wire.
import type { IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import accepts from 'accepts';
import type { Answer } from '../caches/answers.js';

/** Smaller bodies fit in one packet either way. */
const MIN_BYTES = 1400;

/** Compressing pays off for text; images and archives are compressed already. */
const COMPRESSIBLE = /^(application\/json|text\/)/i;

/** What a remembered answer knows about its encodings (kept on the answer itself). */
export interface Encodings {
  /** Sent at least once: the next send may compress it. */
  sent?: boolean;
  /** The gzipped body, or null when gzip does not make it smaller. */
  gzip?: Buffer | null;
}

/**
 * Whether the request's Accept-Encoding takes gzip (q > 0), as express's acceptsEncodings
 * reads it (the same `accepts`), on a plain node request too (http/remembered-first.ts).
 */
export function acceptsGzip(req: IncomingMessage): boolean {
  const header = req.headers['accept-encoding'];
  if (!header || !header.includes('gzip')) return false;
  return accepts(req).encodings('gzip') === 'gzip';
}

/** Whether this answer's body is worth compressing at all (its type and size). */
export function compressible(answer: Answer): boolean {
  return answer.body.length >= MIN_BYTES && COMPRESSIBLE.test(answer.headers['content-type'] ?? '');
}

/**
 * The body to send and its encoding: the gzipped one when the client takes gzip and the
 * answer has been sent before; else the plain one (marking it sent).
 */
export function bodyFor(req: IncomingMessage, answer: Answer & Encodings): { body: Buffer; gzip: boolean } {
  if (!answer.sent || !acceptsGzip(req)) {
    answer.sent = true;
    return { body: answer.body, gzip: false };
  }
  if (answer.gzip === undefined) {
    // Level 1: ~3× faster than the default here and within a few percent of its size on JSON.
    const packed = gzipSync(answer.body, { level: 1 });
    answer.gzip = packed.length < answer.body.length * 0.9 ? packed : null;
  }
  return answer.gzip ? { body: answer.gzip, gzip: true } : { body: answer.body, gzip: false };
}

/**
 * Whether this answer already goes gzipped to this request (a 304 then repeats the weak ETag
 * the 200 carried, and says it varies by encoding).
 */
export function goesGzipped(req: IncomingMessage, answer: Answer & Encodings): boolean {
  return compressible(answer) && Boolean(answer.gzip) && acceptsGzip(req);
}

/** A strong ETag names one representation: the gzipped one is a weak match of the plain (RFC 9110 §8.8.3). */
export function weakened(etag: string): string {
  return etag.startsWith('W/') ? etag : `W/${etag}`;
}

/** If-None-Match compares weakly (RFC 9110 §13.1.2): `W/"x"` matches `"x"`. */
export function sameEntityTag(a: string, b: string): boolean {
  const strip = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  return strip(a.trim()) === strip(b.trim());
}
