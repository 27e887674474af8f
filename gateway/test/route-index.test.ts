// The route index sends each request to the routes of its first path segment, and within
// those to the routes of its next literal segment after parameters; what a client sees must
// stay what express alone would answer: same route, same params, order kept,
// case-insensitive paths, HEAD served by GET, OPTIONS and unknown paths falling through.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express, { type RequestHandler } from 'express';
import { literalFirstSegment, routeIndex } from '../src/http/route-index.js';

let server: Server;
let base: string;

const answer = (name: string): RequestHandler => (req, res) => {
  res.json({ route: name, params: req.params });
};

beforeAll(async () => {
  const app = express();
  const api = express.Router({ caseSensitive: false, strict: false });
  const index = routeIndex(api);
  index.add('GET', '/repos/search', [answer('search')]);
  // Literal in the second segment, before a route whose parameters would also match it.
  index.add('GET', '/repos/issues/search', [answer('issue search')]);
  index.add('GET', '/repos/:owner/:repo/pulls/:index.:diffType', [answer('pull diff')]);
  index.add('GET', '/repos/:owner/:repo/pulls/:index', [answer('pull')]);
  index.add('GET', '/repos/:owner/:repo/branches/:branch', [answer('branch')]);
  index.add('GET', '/repos/:owner/:repo', [answer('repo')]);
  index.add('DELETE', '/repos/:owner/:repo', [answer('delete repo')]);
  index.add('GET', '/user', [answer('me')]);
  // A parameter-first route sits between literal ones: the later `/user/...` must still be found.
  index.add('GET', '/:owner/:repo/archive/:file', [answer('archive')]);
  index.add('GET', '/user/repos', [answer('my repos')]);
  index.add('GET', '/repos/:owner/:repo/broken', [(_req, _res, next) => next(new Error('boom'))]);
  api.use((_req, res) => {
    res.status(404).json({ route: 'not found' });
  });
  app.use('/api/v1', api);
  app.use(((err, _req, res, _next) => {
    res.status(500).json({ route: 'error', message: (err as Error).message });
  }) as express.ErrorRequestHandler);
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function call(path: string, method = 'GET') {
  const res = await fetch(`${base}${path}`, { method });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, allow: res.headers.get('allow') };
}

describe('route index', () => {
  it('finds the route of the first segment with its params', async () => {
    expect(await call('/repos/ada/demo')).toMatchObject({ status: 200, body: { route: 'repo', params: { owner: 'ada', repo: 'demo' } } });
  });

  it('keeps registration order within a segment (a literal path before a parameter one)', async () => {
    expect((await call('/repos/search')).body.route).toBe('search');
  });

  it('finds a repository route by the segment after the owner and name, with its params, in registration order', async () => {
    expect((await call('/repos/ada/demo/pulls/3.diff')).body).toMatchObject({ route: 'pull diff', params: { owner: 'ada', repo: 'demo', index: '3', diffType: 'diff' } });
    expect((await call('/repos/ada/demo/pulls/3')).body).toMatchObject({ route: 'pull', params: { index: '3' } });
    expect((await call('/REPOS/ada/demo/Branches/main/')).body).toMatchObject({ route: 'branch', params: { branch: 'main' } });
    expect((await call('/repos/issues/search')).body.route).toBe('issue search');
    expect((await call('/repos/issues/other')).body).toMatchObject({ route: 'repo', params: { owner: 'issues', repo: 'other' } });
  });

  it('picks the route by method', async () => {
    expect((await call('/repos/ada/demo', 'DELETE')).body.route).toBe('delete repo');
    expect((await call('/repos/ada/demo', 'PUT')).body.route).toBe('not found');
  });

  it('matches paths case-insensitively and with a trailing slash, as the API router does', async () => {
    expect((await call('/REPOS/ada/demo')).body).toMatchObject({ route: 'repo', params: { owner: 'ada', repo: 'demo' } });
    expect((await call('/User/')).body.route).toBe('me');
  });

  it('serves HEAD with the GET route', async () => {
    expect((await call('/user', 'HEAD')).status).toBe(200);
  });

  it('lets OPTIONS fall through instead of answering an automatic Allow list', async () => {
    const res = await call('/repos/ada/demo', 'OPTIONS');
    expect(res.status).toBe(404);
    expect(res.allow).toBeNull();
  });

  it('still reaches parameter-first routes and literal routes registered after them', async () => {
    expect((await call('/ada/demo/archive/main.zip')).body).toMatchObject({ route: 'archive', params: { owner: 'ada', file: 'main.zip' } });
    expect((await call('/user/repos')).body.route).toBe('my repos');
  });

  it('falls through to the next handler for an unknown segment or path', async () => {
    expect((await call('/nothing/here')).body.route).toBe('not found');
    expect((await call('/repos/ada/demo/unknown')).body.route).toBe('not found');
    expect((await call('/')).body.route).toBe('not found');
  });

  it('passes a route\'s error on to the error handler', async () => {
    expect(await call('/repos/ada/demo/broken')).toMatchObject({ status: 500, body: { route: 'error', message: 'boom' } });
  });

  it('treats only a plain word as a literal first segment', () => {
    expect(literalFirstSegment('/repos/:owner')).toBe('repos');
    expect(literalFirstSegment('/user')).toBe('user');
    expect(literalFirstSegment('/:owner/:repo')).toBeUndefined();
    expect(literalFirstSegment('/{*rest}')).toBeUndefined();
  });
});
