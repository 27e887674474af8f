// GET/POST /login/oauth/userinfo: OpenID Connect's UserInfo (Gitea's InfoOAuth) for the
// holder of an OAuth2 access token, sent as `Authorization: Bearer`. Other credentials are
// refused with a Bearer challenge, as Gitea does.
import type { RequestHandler } from 'express';
import { DomainError } from '@anvil/kit';
import { resolveCredential } from '../auth/authenticate.js';
import { MalformedCredential, readCredential } from '../auth/credentials.js';
import type { Deps } from '../http/route.js';
import { presentUser } from '@anvil/presenters/user.js';
import { sendOAuth2Error } from './errors.js';

const CHALLENGE = { 'www-authenticate': 'Bearer realm=""' };

export function userinfoHandler(deps: Deps): RequestHandler {
  const rootUrl = deps.config.rootUrl;
  return async (req, res) => {
    const refuse = (description: string) =>
      sendOAuth2Error(res, 401, { error: 'invalid_token', error_description: description }, CHALLENGE);
    let auth;
    try {
      const credential = readCredential(req);
      if (!credential || credential.kind !== 'token') return refuse('an OAuth2 access token is required');
      auth = await resolveCredential(deps, credential);
    } catch (err) {
      if (err instanceof MalformedCredential) return refuse(err.message);
      if (err instanceof DomainError && (err.kind === 'unauthenticated' || err.kind === 'forbidden')) return refuse(err.message);
      throw err;
    }
    if (auth.method !== 'oauth2' || !auth.user) return refuse('an OAuth2 access token is required');
    const user = auth.user;
    const shown = presentUser(user, auth.caller, rootUrl);
    const payload = JSON.stringify({
      sub: String(user.id),
      name: user.full_name || user.login,
      preferred_username: user.login,
      email: user.email,
      email_verified: true,
      picture: shown.avatar_url,
      website: user.website,
      locale: user.language,
      groups: [],
    });
    res.writeHead(200, { 'content-type': 'application/json;charset=utf-8', 'content-length': Buffer.byteLength(payload), 'cache-control': 'no-store' });
    res.end(payload);
  };
}
