// The route table's shape (Gitea's layering: route table → presenter → service call).
// Each API area exports a list of routes; registerRoutes() wires them into express with
// what every route shares: sign-in and site-admin requirements, token scopes, request
// body validation against the contract, paging headers and error mapping.
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { ANONYMOUS, DomainError, type Caller, type Config, type Logger } from '@anvil/kit';
import { bodyOrZero, validateRequestBody, operationHasBody } from '../contract/index.js';
import type { AuthState } from '../auth/authenticate.js';
import type { CredentialCache } from '../auth/credential-cache.js';
import { RepositoryAccessCache } from '../caches/repository-access.js';
import { AnswerCache, type Answer } from '../caches/answers.js';
import type { AnswerShortcuts, Shortcut } from '../caches/answer-shortcuts.js';
import { CACHED_OPERATIONS, GUARD_ONLY_OPERATIONS, RESOLUTION_OPERATIONS } from '../caches/cached-operations.js';
import { grantsScopes, levelOfMethod, requiredScopes, type ScopeCategory } from '../auth/scopes.js';
import type { ServiceClients } from '../services.js';
import type { repository } from '@anvil/proto';
import { ApiError, errorAnswer, logFailure, publicMessage, sendError, statusOf, type StatusOverrides } from './errors.js';
import { readPage, setPagingHeaders, type Page } from './pagination.js';
import { verifyJsonDepth } from './request-hygiene.js';
import { contextGuardOf, publicOnlyGuardOf } from './context-guard.js';
import { repoAccessRefusal, resolveRouteRepository, type RepoAccess } from './repo-access.js';
import { routeIndex } from './route-index.js';
import { sendAnswer } from './send-answer.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * - `public`: anyone, signed in or not.
 * - `signed`: a signed-in caller (Gitea's reqToken); anonymous → 401.
 * - `basic`: signed in with HTTP Basic and a password (creating tokens needs it).
 * - `admin`: a site administrator (reqSiteAdmin).
 */
export type Access = 'public' | 'signed' | 'basic' | 'admin';

export interface Deps {
  config: Config;
  services: ServiceClients;
  credentials: CredentialCache;
  repositories: RepositoryAccessCache;
  /** Complete answers of the hot repository reads (cached-operations.ts); absent in some tests. */
  answers?: AnswerCache;
  /** Which of those a GET will get, kept for http/remembered-first.ts; absent while tracing. */
  shortcuts?: AnswerShortcuts;
  log: Logger;
}

export interface RouteContext<Body = any> {
  req: Request;
  res: Response;
  caller: Caller;
  auth: AuthState;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Body;
  deps: Deps;
  /** The request's page and limit, clamped by the API settings. */
  page(): Page;
  /** A `*name` path parameter as one string: express 5 hands its segments over as an array. */
  splat(name: string): string;
  /**
   * The route's repository and the caller's permission there, resolved before the route's
   * guards (set for every route that declares `repoAccess`, except a `resolvedInTurn` one,
   * whose service resolves it itself). Pass it on with repoCall(ctx).
   */
  repository?: repository.RepositoryAccess;
}

/** A reply: status and JSON body; `total` adds Link and X-Total-Count for the page. */
export interface Reply {
  status: number;
  body?: unknown;
  total?: number;
  /** Set for the few operations that answer text/plain: `body` is then sent as is. */
  contentType?: string;
  /** The handler streamed the response itself (archives): nothing more is sent. */
  streamed?: boolean;
}

function splatParam(params: Record<string, unknown>, name: string): string {
  const value = params[name];
  return Array.isArray(value) ? value.join('/') : String(value ?? '');
}

export interface Route {
  method: Method;
  /** Express 5 path under /api/v1, e.g. `/users/:username/tokens`. */
  path: string;
  /** The contract's operationId: the request body is validated against it. */
  operationId: string;
  access: Access;
  /** Token scope categories; the method decides read or write. */
  scopes: readonly ScopeCategory[];
  /**
   * What the caller needs on the repository of a `/repos/:owner/:repo/...` route (Gitea's
   * reqRepoReader / reqRepoWriter / reqAdmin / reqOwner; repo-access.ts). Every such route
   * declares it (a test holds the table to that); services trust the resolution it sends.
   */
  repoAccess?: RepoAccess;
  /**
   * The service resolves the repository and the caller's permission itself, inside the
   * repository's write turn, and checks there the permission the write needs (the contents
   * API: domain/file-changes.ts requireWriter). The route's guards then answer from the
   * gateway's remembered resolution (a write does not drop it when it starts, see
   * caches/repository-access.ts), and that resolution is not sent along: a permission
   * revoked a moment ago through another gateway is still refused, by the service.
   */
  resolvedInTurn?: true;
  statusOverrides?: StatusOverrides;
  /**
   * The body carries file contents (the contents API): it may be as large as
   * BodyLimits.files; every other JSON body is held to BodyLimits.json.
   */
  fileBody?: boolean;
  handle(ctx: RouteContext): Promise<Reply>;
}

/** Largest request bodies accepted (express/bytes notation, e.g. `1mb`); bigger ones get a 413. */
export interface BodyLimits {
  json: string;
  files: string;
}

export const ok = (body: unknown, total?: number): Reply => ({ status: 200, body, total });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });
export const plainText = (text: string): Reply => ({ status: 200, body: text, contentType: 'text/plain;charset=utf-8' });

/** What a request was answered from, for keepShortcut. */
export interface Served extends Pick<Shortcut, 'resolution' | 'answerKey' | 'answer' | 'route'> {
  /** The repository as the path names it. */
  owner: string;
  name: string;
  /** The headers set before the answer's own (res.getHeaders() then). */
  before: Record<string, unknown>;
}

/**
 * After a remembered answer went out (or one made of the resolution alone): lets the next
 * identical GET take it before express (http/remembered-first.ts), while everything it
 * rested on stays in force. res.locals holds the request's auth and credentialKey.
 */
export function keepShortcut(deps: Deps, req: Request, res: Response, served: Served): void {
  if (!deps.shortcuts || res.locals.sudo) return;
  const auth = res.locals.auth as AuthState;
  const { owner, name, before, ...answer } = served;
  deps.shortcuts.remember(req, req.originalUrl, {
    credentialKey: res.locals.credentialKey as string, auth, accessKey: RepositoryAccessCache.keyOf(auth.caller, owner, name),
    ...answer, headers: headerStrings(before),
  });
}

/** The route's template, as the request metrics label it (request-metrics.ts). */
function routeLabel(req: Request): string {
  return `${req.baseUrl}${(req.route as { path: string }).path}`;
}

/** Headers as res.getHeaders() holds them, each as the one string sent. */
function headerStrings(headers: Record<string, unknown>): Record<string, string> {
  const strings: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) strings[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return strings;
}

export function sendJson(res: Response, status: number, body: unknown): void {
  if (body === undefined) {
    res.writeHead(status).end();
    return;
  }
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json;charset=utf-8', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

/** What a route asks of its caller, worked out once when the route is registered. */
interface AccessRule {
  access: Access;
  /** `<level>:<category>` per scope category, for GET/HEAD (read) and other methods (write). */
  readScopes: string[];
  writeScopes: string[];
}

function accessRuleOf(route: Route): AccessRule {
  return { access: route.access, readScopes: requiredScopes('read', route.scopes), writeScopes: requiredScopes('write', route.scopes) };
}

function checkAccess(rule: AccessRule, auth: AuthState, caller: Caller, method: string): ApiError | undefined {
  if (rule.access !== 'public' && caller.userId === ANONYMOUS.userId) {
    return new ApiError(401, rule.access === 'basic' ? 'auth required' : 'token is required');
  }
  if (rule.access === 'basic' && auth.method !== 'password') return new ApiError(401, 'auth required');
  if ((auth.method === 'token' || auth.method === 'oauth2') && rule.readScopes.length) {
    const required = levelOfMethod(method) === 'read' ? rule.readScopes : rule.writeScopes;
    if (!grantsScopes(caller.scopes, required)) {
      return new ApiError(403, `token does not have at least one of required scope(s), required=[${required.join(' ')}], token scope=${caller.scopes.join(',')}`);
    }
  }
  if (rule.access === 'admin' && !caller.isAdmin) return new ApiError(403, 'user should be the site admin');
  return undefined;
}

export function registerRoutes(router: Router, routes: readonly Route[], deps: Deps, limits: BodyLimits): void {
  const rootUrl = deps.config.rootUrl;
  const parser = (limit: string) => express.json({ limit, type: () => true, strict: false, verify: verifyJsonDepth });
  const parseJson = parser(limits.json);
  const parseFiles = parser(limits.files);
  const pagingSettings = deps.config.settings.api;
  const index = routeIndex(router);

  for (const route of routes) {
    const rule = accessRuleOf(route);
    const hidden = contextGuardOf(route.path);
    const publicOnly = publicOnlyGuardOf(route.path, route.scopes);
    const handlers: RequestHandler[] = [];
    const hasBody = operationHasBody(route.operationId);
    const cached = route.method === 'GET' && route.repoAccess !== undefined && CACHED_OPERATIONS.has(route.operationId);
    const derived = route.method === 'GET' && route.repoAccess !== undefined && RESOLUTION_OPERATIONS.has(route.operationId);
    // Whether the route shows the repository's figures (size, updated_at, counts), so needs
    // them as of the last hint (caches/repository-access.ts): not a git read's guards, nor a
    // route whose service resolves the repository itself and is sent no resolution.
    const figures = !(route.method === 'GET' && GUARD_ONLY_OPERATIONS.has(route.operationId)) && !route.resolvedInTurn;
    if (hasBody) handlers.push(route.fileBody ? parseFiles : parseJson);
    handlers.push(async (req, res) => {
      const auth = res.locals.auth as AuthState;
      const caller = auth.caller;
      const params = req.params as Record<string, string>;
      let repository: repository.RepositoryAccess | undefined;
      if (route.repoAccess) {
        // Gitea's repoAssignment comes first: a repository the caller may not see is a 404
        // (a public-only token on its holder's private repository a 403) before anything else.
        try {
          repository = await resolveRouteRepository(deps, caller, params.owner!, params.repo!, figures);
        } catch (err) {
          const status = statusOf(err);
          logFailure(deps.log, status, err, { route: route.operationId });
          if (status === 404 && route.method === 'GET' && deps.shortcuts && err instanceof DomainError) {
            // A remembered "not found" (a stranger probing a private repository): the same
            // 404 for the next identical GET, while that very "not found" is remembered.
            const before = res.getHeaders();
            const answer = errorAnswer(404, publicMessage(404, err), rootUrl);
            sendAnswer(req, res, answer);
            return keepShortcut(deps, req, res, { owner: params.owner!, name: params.repo!, resolution: err, answer, before, route: routeLabel(req) });
          }
          return sendError(res, status, publicMessage(status, err), rootUrl);
        }
      }
      const denied = checkAccess(rule, auth, caller, req.method) ?? (repository && repoAccessRefusal(route.repoAccess!, repository, caller));
      if (denied) {
        // Visibility first, as Gitea: only a refusal pays for the lookup (context-guard.ts).
        if (hidden && await hidden(deps, caller, params)) {
          return sendError(res, 404, 'The target couldn\'t be found.', rootUrl);
        }
        return sendError(res, denied.status, denied.message, rootUrl);
      }
      const limited = publicOnly && await publicOnly(deps, caller, params);
      if (limited) return sendError(res, 403, limited, rootUrl);

      let body: unknown = req.body;
      if (hasBody) {
        // Gitea binds an empty body (`null`, `""` too) as the zero value of the option struct.
        body = bodyOrZero(route.operationId, body);
        const problem = validateRequestBody(route.operationId, body);
        if (problem) return sendError(res, 422, problem, rootUrl);
      }
      let page: Page | undefined;
      const ctx: RouteContext = {
        req,
        res,
        caller,
        auth,
        params,
        query: req.query as Record<string, unknown>,
        body,
        deps,
        page: () => (page ??= readPage(req, pagingSettings)),
        splat: (name) => splatParam(req.params, name),
        repository: route.resolvedInTurn ? undefined : repository,
      };
      // A write of a repository with commits changes nothing its resolution shows but what
      // the hint of its row brings (caches/repository-access.ts): the resolution is kept.
      if (route.resolvedInTurn && repository?.repository && !repository.repository.empty) res.locals.resolutionKept = true;
      const sendReply = (reply: Reply): void => {
        if (reply.streamed || res.headersSent) return;
        if (reply.total !== undefined) setPagingHeaders(req, res, ctx.page(), reply.total, rootUrl);
        if (reply.contentType) {
          // Text, or bytes a route serialized itself (a page of pulls): encoded once.
          const bytes = Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(String(reply.body));
          res.writeHead(reply.status, { 'content-type': reply.contentType, 'content-length': bytes.length });
          res.end(bytes);
        } else {
          sendJson(res, reply.status, reply.body);
        }
      };
      // The headers present before the route ran; what it (or its paging) sets is part of its answer.
      const before = cached || derived ? res.getHeaders() : {};
      const answerOf = (reply: Reply): Answer => {
        if (reply.total !== undefined) setPagingHeaders(req, res, ctx.page(), reply.total, rootUrl);
        const headers = headerStrings(Object.fromEntries(Object.entries(res.getHeaders()).filter(([name, value]) => value !== before[name])));
        let body: Buffer;
        if (reply.contentType) {
          body = Buffer.isBuffer(reply.body) ? reply.body : Buffer.from(String(reply.body));
          headers['content-type'] = reply.contentType;
        } else {
          body = Buffer.from(JSON.stringify(reply.body));
          headers['content-type'] = 'application/json;charset=utf-8';
        }
        return { status: reply.status, headers, body };
      };
      try {
        if (cached && repository && deps.answers?.enabled) {
          // Past every guard: the caller may see what it computes, so may see it remembered.
          const subject = {
            operationId: route.operationId, repositoryId: String(repository.repository!.id), owner: params.owner!, name: params.repo!,
            permission: repository.permission, caller, url: req.originalUrl,
          };
          const answer = await deps.answers.get(subject, async () => {
            const reply = await route.handle(ctx);
            if (reply.status !== 200 || reply.streamed || reply.body === undefined) {
              sendReply(reply);
              return undefined;
            }
            return answerOf(reply);
          });
          if (answer) {
            sendAnswer(req, res, answer);
            keepShortcut(deps, req, res, { owner: params.owner!, name: params.repo!, resolution: repository, answerKey: AnswerCache.keyOf(subject), before, route: routeLabel(req) });
          }
          return;
        }
        if (derived && repository && deps.shortcuts) {
          const reply = await route.handle(ctx);
          if (reply.status !== 200 || reply.streamed || reply.body === undefined) return sendReply(reply);
          const answer = answerOf(reply);
          sendAnswer(req, res, answer);
          return keepShortcut(deps, req, res, { owner: params.owner!, name: params.repo!, resolution: repository, answer, before, route: routeLabel(req) });
        }
        sendReply(await route.handle(ctx));
      } catch (err) {
        const status = statusOf(err, route.statusOverrides);
        logFailure(deps.log, status, err, { route: route.operationId });
        sendError(res, status, publicMessage(status, err), rootUrl);
      }
    });
    index.add(route.method, route.path, handlers);
  }
}
