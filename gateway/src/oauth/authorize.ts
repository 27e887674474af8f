// GET /login/oauth/authorize: the authorization endpoint of the code flow.
//
// Anvil serves no HTML sign-in pages, so the user signs in on this request itself: HTTP
// Basic with their password (or a personal access token), or `Authorization: token ...`.
// Presenting that credential with the client's parameters is the consent. Without one the
// answer is 401 with `WWW-Authenticate: Basic`, so a browser asks for the password and
// retries. An OAuth2 access token cannot authorize further clients.
//
// Answers 302 to the redirect URI with `code` and `state`; errors after the client and its
// redirect URI are known go to the client the same way (`error`, `error_description`,
// `state`); an unknown client or redirect URI is shown here (400), never redirected to.
import type { Request, RequestHandler, Response } from 'express';
import { DomainError } from '@anvil/kit';
import { resolveCredential } from '../auth/authenticate.js';
import { MalformedCredential, readCredential } from '../auth/credentials.js';
import type { Deps } from '../http/route.js';
import { oauth2FailureOf, InvalidParameter, sendOAuth2Error, singleParam, type OAuth2Failure } from './errors.js';

const SIGN_IN = { 'www-authenticate': 'Basic realm="Anvil", charset="UTF-8"' };

function redirectTo(res: Response, redirectUri: string, params: Record<string, string>): void {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== '') url.searchParams.set(name, value);
  res.writeHead(302, { location: url.toString(), 'cache-control': 'no-store' }).end();
}

async function signedInCaller(deps: Deps, req: Request) {
  const credential = readCredential(req);
  if (!credential) return undefined;
  const auth = await resolveCredential(deps, credential);
  if (auth.method === 'oauth2') throw new DomainError('forbidden', 'an OAuth2 access token cannot authorize applications', 'access_denied');
  return auth.caller;
}

export function authorizeHandler(deps: Deps): RequestHandler {
  return async (req, res) => {
    const query = req.query as Record<string, unknown>;
    let request;
    let state = '';
    try {
      state = singleParam(query, 'state');
      request = {
        client_id: singleParam(query, 'client_id'),
        redirect_uri: singleParam(query, 'redirect_uri'),
        response_type: singleParam(query, 'response_type'),
        scope: singleParam(query, 'scope'),
        code_challenge: singleParam(query, 'code_challenge'),
        code_challenge_method: singleParam(query, 'code_challenge_method'),
      };
    } catch (err) {
      if (err instanceof InvalidParameter) return sendOAuth2Error(res, 400, { error: 'invalid_request', error_description: err.message });
      throw err;
    }

    let caller;
    try {
      caller = await signedInCaller(deps, req);
    } catch (err) {
      if (err instanceof MalformedCredential) return sendOAuth2Error(res, 401, { error: 'access_denied', error_description: err.message }, SIGN_IN);
      if (err instanceof DomainError && err.kind === 'unauthenticated') {
        return sendOAuth2Error(res, 401, { error: 'access_denied', error_description: err.message }, SIGN_IN);
      }
      if (err instanceof DomainError && err.kind === 'forbidden') return sendOAuth2Error(res, 403, { error: 'access_denied', error_description: err.message });
      throw err;
    }
    if (!caller) return sendOAuth2Error(res, 401, { error: 'access_denied', error_description: 'sign in to authorize this application' }, SIGN_IN);

    try {
      const reply = await deps.services.oauth2.Authorize(request, { caller });
      redirectTo(res, reply.redirect_uri, { code: reply.code, state });
    } catch (err) {
      const failure: OAuth2Failure | undefined = oauth2FailureOf(err);
      if (!failure) throw err;
      const reason = (err as DomainError).reason;
      // Not redirectable: the client or its redirect URI is unknown (RFC 6749 §4.1.2.1).
      if (reason === 'invalid_client' || reason === 'invalid_redirect_uri' || request.redirect_uri === '') {
        return sendOAuth2Error(res, 400, { error: reason === 'invalid_redirect_uri' ? 'invalid_request' : failure.error, error_description: failure.error_description });
      }
      redirectTo(res, request.redirect_uri, { ...failure, state });
    }
  };
}
