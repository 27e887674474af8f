import { describe, it, expect, afterAll } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { contractDocument, implementedDocument, swaggerUiRouter } from '../../src/contract/index.js';

describe('implementedDocument', () => {
  const doc = implementedDocument(['userGet', 'userGetCurrent', 'repoGet'], 'https://git.example.com/forge/');

  it('keeps only the requested operations and the paths that still have one', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => `${method} ${path} ${(op as { operationId: string }).operationId}`));
    expect(operations.sort()).toEqual(['get /repos/{owner}/{repo} repoGet', 'get /user userGetCurrent', 'get /users/{username} userGet']);
  });

  it('keeps every definition and shared response, so no $ref dangles', () => {
    expect(Object.keys(doc.definitions)).toEqual(Object.keys(contractDocument().definitions));
    expect(doc.responses).toEqual(contractDocument().responses);
  });

  it('takes host, basePath and schemes from ROOT_URL', () => {
    expect(doc).toMatchObject({ host: 'git.example.com', basePath: '/forge/api/v1', schemes: ['https'] });
    expect(implementedDocument([], 'http://localhost:3000/')).toMatchObject({ host: 'localhost:3000', basePath: '/api/v1', schemes: ['http'], paths: {} });
  });

  it('names Anvil and the Gitea version whose API it speaks', () => {
    expect(doc.info.title).toBe('Anvil API');
    expect(doc.info.description).toContain('Gitea 1.27.1');
    expect(doc.info.description).toContain('not implemented in Anvil yet');
    expect(contractDocument().info.title).toBe('Gitea API');
  });

  it('leaves the contract itself untouched and refuses unknown operationIds', () => {
    expect(Object.keys(contractDocument().paths).length).toBeGreaterThan(300);
    expect(contractDocument().host).toBeUndefined();
    expect(() => implementedDocument(['userGet', 'userGetTypo'], 'http://localhost:3000/')).toThrow(/userGetTypo/);
  });
});

describe('swaggerUiRouter', () => {
  const app = express().use(swaggerUiRouter('/swagger.v1.json'));
  const server = app.listen(0);
  const base = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('serves a Swagger UI page at /api/swagger pointed at the spec, with no CDN', async () => {
    const res = await fetch(`${base()}/api/swagger`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('data-spec-url="/swagger.v1.json"');
    expect(html).toContain('<title>Anvil API (Gitea 1.27.1 compatible)</title>');
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('serves the swagger-ui-dist files the page loads, and nothing else of the package', async () => {
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'anvil-boot.js']) {
      const res = await fetch(`${base()}/api/swagger-ui/${asset}`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    expect((await fetch(`${base()}/api/swagger-ui/index.html`)).status).toBe(404);
    expect((await fetch(`${base()}/api/swagger-ui/..%2Fpackage.json`)).status).toBe(404);
  });
});
