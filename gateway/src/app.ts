// The gateway's express application: /api/v1 (authenticate → route table), health,
// the contract document and Swagger UI. Built separately from main.ts so tests can
// mount it without a process.
import express, { type Express } from 'express';
import { authenticate } from './auth/authenticate.js';
import { trackWrites } from './caches/repository-access.js';
import { implementedDocument, matchOperation, swaggerUiRouter } from './contract/index.js';
import { gitHttp } from './git-http/proxy.js';
import { errorBody, errorHandler, sendError } from './http/errors.js';
import { accessLog } from './http/access-log.js';
import { traceRequests } from './http/tracing.js';
import { countRequests } from './http/request-metrics.js';
import { healthz } from './http/health.js';
import { checkRequestUrl } from './http/request-hygiene.js';
import { registerRoutes, sendJson, type Deps } from './http/route.js';
import { markResolvedInTurn } from './http/resolved-in-turn.js';
import { oauth2Router } from './oauth/router.js';
import { apiRoutes } from './routes/index.js';
import { webArchiveRoutes } from './routes/repo-archives.js';
import { webRawRoutes } from './routes/repo-raw.js';
import { serveRepositoryAvatar } from './routes/repo-avatars.js';

export interface AppOptions {
  /**
   * Largest JSON body accepted (default 2 MiB: room for a 1 MiB field, which the field's
   * own limit then refuses with Gitea's 422); bigger ones get a clean 413.
   */
  jsonBodyLimit?: string;
  /** Largest body of the contents API, which carries whole files in base64 (default 32 MiB). */
  fileBodyLimit?: string;
  /** An info line per request (default on). */
  accessLog?: boolean;
}

/** `not implemented in Anvil yet: GET /repos/{owner}/{repo}/releases` for an operation of the contract, else Gitea's not-found message. */
export function notServedMessage(method: string, path: string): string {
  const operation = matchOperation(method, path)?.operation;
  return operation ? `not implemented in Anvil yet: ${operation.method} ${operation.path}` : 'The target couldn\'t be found.';
}

export function createApp(deps: Deps, options: AppOptions = {}): Express {
  const { rootUrl } = deps.config;
  const app = express();
  // Gitea's API sends no ETag; computing one costs a hash of every body (performance.md rule 5).
  app.set('etag', false);
  app.set('x-powered-by', false);
  app.set('query parser', 'simple');
  app.use(traceRequests());
  app.use(countRequests());
  if (options.accessLog !== false) app.use(accessLog(deps.log));

  // Before anything reads a path or query: a malformed URL is the client's 4xx.
  app.use(checkRequestUrl(rootUrl));
  app.get('/api/healthz', healthz(deps.config, deps.services));
  // Before any route: a write in flight keeps remembered repositories and answers from being
  // served (but for the guards of a write whose service resolves them in its turn).
  app.use('/api/v1', markResolvedInTurn(apiRoutes));
  app.use(deps.answers ? trackWrites(deps.repositories, deps.answers) : trackWrites(deps.repositories));

  if (deps.config.settings.api.ENABLE_SWAGGER) {
    const document = JSON.stringify(implementedDocument(apiRoutes.map((r) => r.operationId), rootUrl));
    app.get('/swagger.v1.json', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json;charset=utf-8' }).end(document);
    });
    app.use(swaggerUiRouter('/swagger.v1.json'));
    app.get('/api/v1/swagger', (_req, res) => res.redirect(`${rootUrl}api/swagger`));
  }

  // Anvil as an OAuth2 provider, at Gitea's /login/oauth/* paths ([oauth2] ENABLED).
  if (deps.config.settings.oauth2.ENABLED) app.use(oauth2Router(deps));

  const api = express.Router({ caseSensitive: false, strict: false });
  api.use((_req, res, next) => {
    res.setHeader('Access-Control-Expose-Headers', 'Link, X-Total-Count');
    next();
  });
  api.use(authenticate(deps));
  registerRoutes(api, apiRoutes, deps, { json: options.jsonBodyLimit ?? '2mb', files: options.fileBodyLimit ?? '32mb' });
  // Past every route: an operation of Gitea's API that Anvil does not serve yet keeps the 404
  // a client probing for a feature expects, with a message a person can tell from a missing
  // repository.
  api.use((req, res) => sendJson(res, 404, errorBody(404, notServedMessage(req.method, req.path), rootUrl)));
  app.use('/api/v1', api);

  // The archive links of the Tag JSON (zipball_url, tarball_url) are Gitea's web paths.
  const web = express.Router({ caseSensitive: false, strict: false });
  web.use('/:owner/:repo/archive', authenticate(deps));
  registerRoutes(web, webArchiveRoutes, deps, { json: '1kb', files: '1kb' });
  // The raw file links of contents (download_url) are Gitea's web paths too.
  web.use('/:owner/:repo/raw', authenticate(deps));
  registerRoutes(web, webRawRoutes, deps, { json: '1kb', files: '1kb' });
  // Repository avatars at Gitea's web path (the Repository JSON's avatar_url).
  app.get('/repo-avatars/:name', serveRepositoryAvatar(deps));
  app.use(web);

  // Git smart HTTP on the same host, as Gitea serves it.
  app.use(gitHttp(deps));

  app.use((_req, res) => sendError(res, 404, 'The target couldn\'t be found.', rootUrl));
  app.use(errorHandler(rootUrl, deps.log));
  return app;
}
