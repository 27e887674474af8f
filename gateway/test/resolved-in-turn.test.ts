// The contents API's writes are resolved by the repository service in its write turn: the
// gateway marks them on arrival (before its write tracking), matching paths as express does,
// and sends them no resolution of its own.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import express from 'express';
import { markResolvedInTurn } from '../src/http/resolved-in-turn.js';
import { apiRoutes } from '../src/routes/index.js';

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use('/api/v1', markResolvedInTurn(apiRoutes));
  app.use((_req, res) => {
    res.json({ resolvedInTurn: res.locals.resolvedInTurn === true });
  });
  server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const marked = async (method: string, path: string) => ((await (await fetch(`${base}${path}`, { method })).json()) as { resolvedInTurn: boolean }).resolvedInTurn;

describe('writes the repository service resolves in its turn', () => {
  it('are the contents API\'s file writes, whatever the case of the path', async () => {
    expect(await marked('POST', '/api/v1/repos/alice/app/contents/docs/a.txt')).toBe(true);
    expect(await marked('PUT', '/api/v1/repos/alice/app/contents/a.txt')).toBe(true);
    expect(await marked('DELETE', '/api/v1/repos/alice/app/contents/a.txt')).toBe(true);
    expect(await marked('POST', '/api/v1/repos/alice/app/contents')).toBe(true);
    expect(await marked('POST', '/api/v1/Repos/Alice/App/Contents/a.txt')).toBe(true);
  });

  it('leave reads, other writes and other paths unmarked', async () => {
    expect(await marked('GET', '/api/v1/repos/alice/app/contents/a.txt')).toBe(false);
    expect(await marked('POST', '/api/v1/repos/alice/app/file-contents')).toBe(false);
    expect(await marked('POST', '/api/v1/repos/alice/app/branches')).toBe(false);
    expect(await marked('POST', '/repos/alice/app/contents/a.txt')).toBe(false);
  });

  it('are writes that need at least read access on the repository, so a stranger still meets its 404 at the gateway', () => {
    const routes = apiRoutes.filter((r) => r.resolvedInTurn);
    expect(routes.length).toBeGreaterThan(0);
    for (const route of routes) {
      expect(route.method).not.toBe('GET');
      expect(route.repoAccess).toBeDefined();
    }
  });
});
