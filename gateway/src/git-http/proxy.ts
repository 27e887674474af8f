// Git smart HTTP at `{ROOT_URL}{owner}/{repo}(.git)/info/refs|git-upload-pack|git-receive-pack`.
// The gateway authenticates like Gitea's git HTTP handler (anonymous read of public
// repositories; Basic with a password or a token otherwise; 401 with WWW-Authenticate so
// git prompts), resolves the caller's permission (remembered by the gateway, else one
// ResolveRepository call), then streams the request to the repository service's HTTP side
// channel with http-proxy-middleware, adding a signed grant. No pack is buffered here; a
// fetch's ref advertisement is remembered (advertisement.ts).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { ANONYMOUS, atLeast, DomainError, type Caller } from '@anvil/kit';
import { ANONYMOUS_AUTH, resolveCredential, type AuthState } from '../auth/authenticate.js';
import { MalformedCredential, readCredential } from '../auth/credentials.js';
import { grantsScopes, requiredScopes } from '../auth/scopes.js';
import { resolveRouteRepository } from '../http/repo-access.js';
import { keepShortcut, type Deps } from '../http/route.js';
import { sendAnswer } from '../http/send-answer.js';
import { AnswerCache } from '../caches/answers.js';
import { credentialKey } from '../auth/credential-cache.js';
import { advertisementSubject, uploadPackAdvertisement } from './advertisement.js';
import { GIT_GRANT_HEADER, signGrant } from './grant.js';

const GIT_PATH = /^\/([A-Za-z0-9_][A-Za-z0-9_.-]*)\/([A-Za-z0-9_.-]+?)(\.git)?\/(info\/refs|git-upload-pack|git-receive-pack)$/;

function text(res: Response, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(`${message}\n`);
}

function askForCredentials(res: Response): void {
  text(res, 401, 'Unauthorized', { 'www-authenticate': 'Basic realm="Gitea"' });
}

/** Who is calling; res.locals gets the auth and its credentialKey, as the API's authenticate() sets them. */
async function authenticateGit(deps: Deps, req: Request, res: Response): Promise<AuthState | 'denied'> {
  const credential = readCredential(req);
  res.locals.credentialKey = credential ? credentialKey(credential) : '';
  if (!credential) return (res.locals.auth = ANONYMOUS_AUTH);
  try {
    return (res.locals.auth = await resolveCredential(deps, credential, res.locals.credentialKey as string));
  } catch (err) {
    if (err instanceof DomainError && (err.kind === 'unauthenticated' || err.kind === 'forbidden')) return 'denied';
    throw err;
  }
}

export function gitHttp(deps: Deps): RequestHandler {
  const { config, log } = deps;
  const secret = config.settings.security.INTERNAL_TOKEN ?? '';
  const proxy = createProxyMiddleware<Request, Response>({
    target: `http://${config.repositoryHttpAddress}`,
    // Packs can take long; git itself bounds idle connections.
    proxyTimeout: 0,
    on: {
      // Connection is hop-by-hop: the side channel closes its connection after a pack,
      // which says nothing about the client's, so git may keep using it.
      proxyRes(proxyRes) {
        delete proxyRes.headers.connection;
      },
      error(err, _req, res) {
        log.error({ err }, 'git HTTP proxy failed');
        if ('writeHead' in res && !res.headersSent) text(res as Response, 503, 'repository service unavailable');
        else (res as Response).destroy?.();
      },
    },
  });

  return async (req: Request, res: Response, next: NextFunction) => {
    const match = GIT_PATH.exec(req.path);
    if (!match || (req.method !== 'GET' && req.method !== 'POST')) return next();
    const [, owner, name, , action] = match;
    const service = action === 'info/refs' ? String((req.query as Record<string, unknown>).service ?? '') : action;
    if ((action === 'info/refs') !== (req.method === 'GET')) return text(res, 405, 'Method Not Allowed');
    if (config.settings.repository.DISABLE_HTTP_GIT) return text(res, 403, 'Interacting with repositories by HTTP protocol is not allowed');
    if (service !== 'git-upload-pack' && service !== 'git-receive-pack') return text(res, 403, 'Unsupported service');
    const push = service === 'git-receive-pack';

    let auth: AuthState | 'denied';
    try {
      auth = await authenticateGit(deps, req, res);
    } catch (err) {
      if (err instanceof MalformedCredential) return askForCredentials(res);
      return next(err);
    }
    if (auth === 'denied') return askForCredentials(res);
    const caller: Caller = auth.caller;
    const anonymous = caller.userId === ANONYMOUS.userId;
    // Pushing always needs a signed-in user: ask before telling anything about the repository.
    if (push && anonymous) return askForCredentials(res);
    if (auth.method === 'token' || auth.method === 'oauth2') {
      if (!grantsScopes(caller.scopes, requiredScopes(push ? 'write' : 'read', ['repository']))) {
        return text(res, 403, 'token does not have the required scope');
      }
    }

    let resolved;
    try {
      // The gateway's remembered resolution (a push is a write: it bypasses what it remembers);
      // a fetch shows nothing of the repository's figures (size, counts).
      resolved = await resolveRouteRepository(deps, caller, owner!, name!, push);
    } catch (err) {
      if (err instanceof DomainError && err.kind === 'not_found') {
        // Gitea asks anonymous callers to sign in, so git prompts for credentials and a
        // private repository reveals nothing; a signed-in caller gets 404.
        return anonymous ? askForCredentials(res) : text(res, 404, 'Repository not found');
      }
      return next(err);
    }
    const repo = resolved.repository!;
    const permission = resolved.permission;
    if (push && !atLeast(permission, 'write')) return text(res, 403, 'User permission denied for writing.');
    if (push && repo.archived) return text(res, 403, 'This repo is archived. You can view files and clone it, but cannot push or open issues or pull requests.');
    // Gitea's githttp: a pull mirror's refs are its source's.
    if (push && repo.mirror) return text(res, 403, 'mirror repository is read-only');
    // A migration's git data reaches the name only when its clone is done.
    if (repo.status === 'migrating') return text(res, 404, 'Repository is being migrated');

    const grant = signGrant(secret, caller, resolved);
    if (action === 'info/refs' && !push) {
      const header = req.headers['git-protocol'];
      const protocol = typeof header === 'string' && /^version=\d$/.test(header) ? header : '';
      try {
        const answer = await uploadPackAdvertisement(deps, resolved, protocol, grant);
        if (answer) {
          sendAnswer(req, res, answer);
          // The next clone or fetch with the same credential and protocol is answered before express.
          const answerKey = AnswerCache.keyOf(advertisementSubject(repo, protocol));
          return keepShortcut(deps, req, res, { owner: owner!, name: name!, resolution: resolved, answerKey, before: {}, route: 'unmatched' });
        }
      } catch (err) {
        log.error({ err }, 'git HTTP advertisement failed');
        return text(res, 503, 'repository service unavailable');
      }
    }
    const query = action === 'info/refs' ? `?service=${service}` : '';
    req.url = `/${encodeURIComponent(repo.owner_login)}/${encodeURIComponent(repo.name)}/${action}${query}`;
    req.headers[GIT_GRANT_HEADER] = grant;
    delete req.headers.authorization;
    return proxy(req, res, next);
  };
}
