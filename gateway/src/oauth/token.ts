// POST /login/oauth/access_token: the token endpoint (RFC 6749 §4.1.3, §6). The body is
// form-encoded (the RFC's) or JSON (Gitea accepts both); a client may authenticate in the
// body or with HTTP Basic (client_secret_basic, §2.3.1). Answers the token pair with
// `Cache-Control: no-store`.
import type { RequestHandler } from 'express';
import { ANONYMOUS } from '@anvil/kit';
import type { Deps } from '../http/route.js';
import { checkedParam, oauth2FailureOf, InvalidParameter, sendOAuth2Error, singleParam } from './errors.js';

interface ClientCredentials {
  client_id: string;
  client_secret: string;
}

/** client_secret_basic: both parts are form-encoded before base64 (RFC 6749 §2.3.1). */
function basicClient(header: string | undefined): ClientCredentials | undefined {
  if (!header || !/^basic /i.test(header)) return undefined;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const form = new URLSearchParams(`id=${decoded.slice(0, colon)}&secret=${decoded.slice(colon + 1)}`);
  return { client_id: form.get('id') ?? '', client_secret: form.get('secret') ?? '' };
}

export function tokenHandler(deps: Deps): RequestHandler {
  return async (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const basic = basicClient(req.headers.authorization);
    let request;
    try {
      request = {
        grant_type: singleParam(body, 'grant_type'),
        code: singleParam(body, 'code'),
        redirect_uri: singleParam(body, 'redirect_uri'),
        client_id: checkedParam('client_id', basic?.client_id || singleParam(body, 'client_id')),
        client_secret: checkedParam('client_secret', basic?.client_secret || singleParam(body, 'client_secret')),
        code_verifier: singleParam(body, 'code_verifier'),
        refresh_token: singleParam(body, 'refresh_token'),
      };
    } catch (err) {
      if (err instanceof InvalidParameter) return sendOAuth2Error(res, 400, { error: 'invalid_request', error_description: err.message });
      throw err;
    }
    try {
      const reply = await deps.services.oauth2.ExchangeToken(request, { caller: ANONYMOUS });
      // A refresh ends the previous access token; drop it here before answering (other
      // replicas drop it on identity's credential.revoked event).
      if (request.grant_type === 'refresh_token' && reply.user) deps.credentials.dropUser(reply.user.id);
      const payload = JSON.stringify({
        access_token: reply.access_token,
        token_type: reply.token_type,
        expires_in: reply.expires_in,
        refresh_token: reply.refresh_token,
      });
      res.writeHead(200, {
        'content-type': 'application/json;charset=utf-8',
        'content-length': Buffer.byteLength(payload),
        'cache-control': 'no-store',
        pragma: 'no-cache',
      });
      res.end(payload);
    } catch (err) {
      const failure = oauth2FailureOf(err);
      if (!failure) throw err;
      // A client that authenticated with HTTP Basic and failed gets 401 and a challenge (§5.2).
      if (failure.error === 'invalid_client' && basic) {
        return sendOAuth2Error(res, 401, failure, { 'www-authenticate': 'Basic realm="Anvil"' });
      }
      sendOAuth2Error(res, 400, failure);
    }
  };
}
