import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import express, { type Request } from 'express';
import { bodyFor, compressible, sameEntityTag } from '../src/http/answer-encoding.js';
import type { Answer } from '../src/caches/answers.js';

/** An express request carrying only these headers (what the negotiation reads). */
function requestWith(headers: Record<string, string>): Request {
  const req = Object.create(express.request) as Request;
  Object.assign(req, { headers });
  return req;
}

const page = (): Answer => ({
  status: 200, headers: { 'content-type': 'application/json;charset=utf-8' },
  body: Buffer.from(JSON.stringify(Array.from({ length: 50 }, (_, i) => ({ number: i, title: `Pull ${i}`, base: { repo: { full_name: 'alice/app' } } })))),
});

describe('gzip of remembered answers', () => {
  it('sends an answer plain the first time and gzipped from then on to a client that takes gzip', () => {
    const answer = page();
    const gzip = requestWith({ 'accept-encoding': 'gzip, deflate' });
    expect(bodyFor(gzip, answer).gzip).toBe(false);
    const second = bodyFor(gzip, answer);
    expect(second.gzip).toBe(true);
    expect(second.body.length).toBeLessThan(answer.body.length / 5);
    expect(gunzipSync(second.body).equals(answer.body)).toBe(true);
  });

  it('sends plain to a client that does not ask for gzip or refuses it with q=0', () => {
    const answer = page();
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'gzip;q=0, identity' }]) {
      bodyFor(requestWith(headers), answer);
      expect(bodyFor(requestWith(headers), answer)).toEqual({ body: answer.body, gzip: false });
    }
  });

  it('keeps small, binary or incompressible answers plain', () => {
    expect(compressible({ status: 200, headers: { 'content-type': 'application/json' }, body: Buffer.from('[]') })).toBe(false);
    expect(compressible({ status: 200, headers: { 'content-type': 'image/png' }, body: Buffer.alloc(10_000) })).toBe(false);
    const noise: Answer = { status: 200, headers: { 'content-type': 'text/plain' }, body: Buffer.from(Array.from({ length: 4000 }, () => Math.floor(Math.random() * 256))) };
    const gzip = requestWith({ 'accept-encoding': 'gzip' });
    bodyFor(gzip, noise);
    expect(bodyFor(gzip, noise)).toEqual({ body: noise.body, gzip: false });
  });

  it('matches a weak entity tag against the strong one it was made from', () => {
    expect(sameEntityTag('W/"abc"', '"abc"')).toBe(true);
    expect(sameEntityTag(' "abc"', 'W/"abc"')).toBe(true);
    expect(sameEntityTag('W/"abd"', '"abc"')).toBe(false);
  });
});
