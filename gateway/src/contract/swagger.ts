// What Anvil publishes about itself, as Gitea does: `/swagger.v1.json` (the contract cut
// down to the operations Anvil implements) and the Swagger UI page at `/api/swagger`, whose
// scripts come from the swagger-ui-dist package (no CDN: the page works offline).
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Router, type Request, type Response } from 'express';
import { contractDocument, operationById, type SwaggerDocument } from './document.js';

/**
 * The contract restricted to `operationIds`: other methods and emptied paths are pruned;
 * definitions and shared responses are kept whole (pruning them buys nothing and risks a
 * dangling `$ref`). `host`, `basePath` and `schemes` follow ROOT_URL, so Swagger UI's "Try it
 * out" talks to this server even under a sub-path (`https://example.com/git/` → `/git/api/v1`).
 * Throws on an operationId the contract does not have: a route table typo should fail loudly.
 */
export function implementedDocument(operationIds: Iterable<string>, rootUrl: string): SwaggerDocument {
  const wanted = new Set(operationIds);
  const unknown = [...wanted].filter((id) => !operationById(id));
  if (unknown.length) throw new Error(`implementedDocument: not in the contract: ${unknown.join(', ')}`);
  const source = contractDocument();
  const paths: SwaggerDocument['paths'] = {};
  for (const [path, item] of Object.entries(source.paths)) {
    const kept = Object.entries(item).filter(([method, op]) => method === 'parameters' || wanted.has((op as { operationId: string }).operationId));
    if (kept.some(([method]) => method !== 'parameters')) paths[path] = structuredClone(Object.fromEntries(kept));
  }
  const root = new URL(rootUrl);
  const { paths: _every, ...rest } = source;
  const giteaVersion = String((source.info as { version?: unknown }).version ?? '');
  return {
    ...structuredClone(rest),
    info: {
      ...structuredClone(source.info),
      title: 'Anvil API',
      description: `Anvil's API v1, wire-compatible with Gitea ${giteaVersion}'s: the same paths, JSON and status codes, `
        + 'so Gitea clients work unchanged. This document lists only the operations Anvil implements; '
        + 'any other operation of Gitea\'s API answers 404 "not implemented in Anvil yet".',
    },
    host: root.host,
    basePath: `${root.pathname.replace(/\/+$/, '')}/api/v1`,
    schemes: [root.protocol.replace(/:$/, '')],
    paths,
  };
}

/** The Gitea version whose API the contract document describes. */
const GITEA_VERSION = escapeAttribute(String((contractDocument().info as { version?: unknown }).version ?? ''));

// Resolved through package.json (which swagger-ui-dist lets anyone import) so the files are
// found wherever pnpm put the package.
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

// Only what the page loads: the package also ships a demo index.html (the Petstore) and
// source maps, which have no business on a production server.
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-16x16.png', 'favicon-32x32.png', 'oauth2-redirect.html', 'oauth2-redirect.js']);

// Served as a file rather than inline so a strict Content-Security-Policy can still allow it.
const BOOT_SCRIPT = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'none',
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  });
});
`;

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

// Asset URLs are relative (`swagger-ui/...` from `/api/swagger` is `/api/swagger-ui/...`), so
// the page also works when ROOT_URL has a sub-path and a proxy strips it.
function page(specUrl: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Anvil API (Gitea ${GITEA_VERSION} compatible)</title>
  <link rel="stylesheet" href="swagger-ui/swagger-ui.css">
  <link rel="icon" type="image/png" href="swagger-ui/favicon-32x32.png" sizes="32x32">
  <link rel="icon" type="image/png" href="swagger-ui/favicon-16x16.png" sizes="16x16">
</head>
<body>
  <div id="swagger-ui" data-spec-url="${escapeAttribute(specUrl)}"></div>
  <script src="swagger-ui/swagger-ui-bundle.js"></script>
  <script src="swagger-ui/anvil-boot.js"></script>
</body>
</html>
`;
}

/** `GET /api/swagger` (the page) and `GET /api/swagger-ui/<asset>`; the page loads `specUrl`. */
export function swaggerUiRouter(specUrl: string): Router {
  const router = Router();
  const html = page(specUrl);
  router.get('/api/swagger', (_req: Request, res: Response) => {
    res.type('html').send(html);
  });
  router.get('/api/swagger-ui/anvil-boot.js', (_req: Request, res: Response) => {
    res.type('application/javascript').send(BOOT_SCRIPT);
  });
  router.get('/api/swagger-ui/:asset', (req: Request, res: Response, next) => {
    const asset = String(req.params.asset);
    if (!ASSETS.has(asset)) return next();
    // The package version is pinned, so a day of caching is safe.
    res.sendFile(asset, { root: SWAGGER_UI_DIR, maxAge: '1d' }, (err) => err && next(err));
  });
  return router;
}
