// The OAuth2 authorization-code flow with PKCE (RFC 6749 §4.1, RFC 7636), as Gitea serves
// it at /login/oauth/authorize and /login/oauth/access_token. Errors carry the RFC's error
// code as their reason (`invalid_grant`, `invalid_client`, ...) so the gateway can answer
// in the protocol's shape; codes are single-use and short-lived, refresh tokens rotate.
import { ANONYMOUS, DomainError, type Caller } from '@anvil/kit';
import { existingUser } from './context.js';
import type { OAuth2Application, OAuth2Context, OAuth2Grant, OAuth2Writer } from './oauth2.js';
import { challengeMethodOf, isValidChallenge, verifyCodeVerifier, type ChallengeMethod } from './oauth2-pkce.js';
import { matchRedirectUri } from './oauth2-redirect-uris.js';
import {
  hashSecret, newAccessToken, newAuthorizationCode, newRefreshToken, secretMatches,
} from './oauth2-secrets.js';
import { InvalidScopeError, normalizeScopes } from './scopes.js';
import type { User } from './user.js';

/** The RFC 6749 error codes the flow answers with (§4.1.2.1 and §5.2). */
export type OAuth2ErrorCode =
  | 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client'
  | 'unsupported_grant_type' | 'unsupported_response_type' | 'invalid_scope' | 'access_denied'
  // Not the RFC's: the authorize request names no valid redirect target, so the error must
  // be shown to the user rather than sent to the client (§4.1.2.1).
  | 'invalid_redirect_uri';

export const oauth2Error = (code: OAuth2ErrorCode, description: string): DomainError =>
  new DomainError(code === 'invalid_client' ? 'unauthenticated' : 'invalid', description, code);

export interface AuthorizeRequest {
  client_id: string;
  redirect_uri: string;
  response_type: string;
  scope: string;
  code_challenge: string;
  code_challenge_method: string;
}

export interface Authorization {
  code: string;
  redirect_uri: string;
}

export interface TokenRequest {
  grant_type: string;
  code: string;
  redirect_uri: string;
  client_id: string;
  client_secret: string;
  code_verifier: string;
  refresh_token: string;
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  refresh_token: string;
  user: User;
}

const nowOf = (ctx: OAuth2Context) => ctx.now?.() ?? new Date();
const later = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000);

/**
 * The Gitea scopes a client asked for, space-separated as OAuth2 sends them. OpenID Connect
 * names (openid, profile, email, groups) are not API scopes and are skipped; asking for no
 * API scope grants `all`, as Gitea's OAuth2 tokens do by default.
 */
export function grantScopesOf(scope: string): string[] {
  const asked = scope.split(' ').filter((name) => name !== '' && !['openid', 'profile', 'email', 'groups'].includes(name));
  try {
    const scopes = normalizeScopes(asked);
    return scopes.length ? scopes : ['all'];
  } catch (err) {
    if (err instanceof InvalidScopeError) throw oauth2Error('invalid_scope', err.message);
    throw err;
  }
}

async function clientOf(ctx: OAuth2Context, clientId: string): Promise<OAuth2Application> {
  const app = clientId ? await ctx.store.applicationByClientId(clientId) : undefined;
  if (!app) throw oauth2Error('invalid_client', 'client is not registered');
  return app;
}

/**
 * The signed-in caller grants the client: answers a code bound to the redirect URI and
 * the PKCE challenge. Public clients must use PKCE (they cannot keep a secret).
 */
export async function authorize(ctx: OAuth2Context, caller: Caller, request: AuthorizeRequest): Promise<Authorization> {
  if (caller.userId === ANONYMOUS.userId) throw new DomainError('unauthenticated', 'sign in to authorize an application', 'unauthenticated');
  const app = await clientOf(ctx, request.client_id);
  const asked = request.redirect_uri === '' && app.redirect_uris.length === 1 ? app.redirect_uris[0] : request.redirect_uri;
  const redirect_uri = matchRedirectUri(app.redirect_uris, asked, app.confidential_client);
  if (!redirect_uri) throw oauth2Error('invalid_redirect_uri', 'redirect_uri is not one the application registered');
  if (request.response_type !== 'code') throw oauth2Error('unsupported_response_type', 'only response_type=code is supported');
  const method = challengeMethodOf(request.code_challenge_method, request.code_challenge);
  if (method === undefined) throw oauth2Error('invalid_request', 'unsupported code_challenge_method');
  if (method !== '' && !isValidChallenge(request.code_challenge)) throw oauth2Error('invalid_request', 'malformed code_challenge');
  if (method === '' && !app.confidential_client) throw oauth2Error('invalid_request', 'PKCE is required for public clients');
  const scopes = grantScopesOf(request.scope);
  const user = await existingUser(ctx.identity, caller.userId);
  const code = newAuthorizationCode();
  await ctx.store.transaction(async (tx) => {
    const grant = await tx.saveGrant(user.id, app.id, scopes);
    await tx.deleteExpired(grant.id, nowOf(ctx));
    await tx.insertCode({
      grant_id: grant.id,
      code_hash: hashSecret(code),
      // The URI as presented: the token request must repeat it exactly (RFC 6749 §4.1.3).
      redirect_uri: asked,
      code_challenge: request.code_challenge,
      code_challenge_method: method,
      valid_until: later(nowOf(ctx), ctx.settings.codeSeconds),
    });
  });
  return { code, redirect_uri: asked };
}

/** A confidential client proves itself with its secret; a public one only names itself. */
function authenticateClient(app: OAuth2Application, secret: string): void {
  if (app.confidential_client && !(secret && secretMatches(secret, app.client_secret_hash))) {
    throw oauth2Error('invalid_client', 'invalid client secret');
  }
}

async function issueTokens(ctx: OAuth2Context, tx: OAuth2Writer, grant: OAuth2Grant, user: User): Promise<IssuedTokens> {
  const now = nowOf(ctx);
  const access_token = newAccessToken();
  const refresh_token = newRefreshToken();
  await tx.deleteExpired(grant.id, now);
  await tx.insertToken({
    grant_id: grant.id,
    access_token_hash: hashSecret(access_token),
    refresh_token_hash: hashSecret(refresh_token),
    access_expires: later(now, ctx.settings.accessTokenSeconds),
    refresh_expires: later(now, ctx.settings.refreshTokenSeconds),
  });
  return { access_token, token_type: 'bearer', expires_in: ctx.settings.accessTokenSeconds, refresh_token, user };
}

async function grantUser(ctx: OAuth2Context, grant: OAuth2Grant): Promise<User> {
  const user = await ctx.identity.store.userById(grant.user_id);
  if (!user || !user.active || user.prohibit_login) throw oauth2Error('invalid_grant', 'the user can no longer sign in');
  return user;
}

async function exchangeCode(ctx: OAuth2Context, app: OAuth2Application, request: TokenRequest): Promise<IssuedTokens> {
  if (!request.code) throw oauth2Error('invalid_request', 'code is required');
  return ctx.store.transaction(async (tx) => {
    // Taken (deleted) first, so two concurrent exchanges of one code cannot both succeed.
    const taken = await tx.takeCode(hashSecret(request.code));
    const invalidCode = () => oauth2Error('invalid_grant', 'the code is invalid, expired or already used');
    if (!taken || taken.grant.application_id !== app.id || taken.code.valid_until <= nowOf(ctx)) throw invalidCode();
    const { code, grant } = taken;
    if (request.redirect_uri !== code.redirect_uri) throw oauth2Error('invalid_grant', 'redirect_uri does not match the authorization request');
    if (code.code_challenge_method !== '') {
      if (!request.code_verifier) throw oauth2Error('invalid_request', 'code_verifier is required');
      if (!verifyCodeVerifier(code.code_challenge_method as ChallengeMethod, code.code_challenge, request.code_verifier)) {
        throw oauth2Error('invalid_grant', 'code_verifier does not match the code_challenge');
      }
    }
    return issueTokens(ctx, tx, grant, await grantUser(ctx, grant));
  });
}

/**
 * Rotates the refresh token: the old pair ends (its access token too) and a new pair is
 * issued. A refresh token presented again after it was exchanged was copied by someone, so
 * every token of the grant is revoked and the client must ask the user again (RFC 9700
 * §4.14.2); that revocation commits even though the request is refused.
 */
async function refresh(ctx: OAuth2Context, app: OAuth2Application, request: TokenRequest): Promise<IssuedTokens> {
  if (!request.refresh_token) throw oauth2Error('invalid_request', 'refresh_token is required');
  const hash = hashSecret(request.refresh_token);
  const outcome = await ctx.store.transaction(async (tx): Promise<IssuedTokens | 'refused'> => {
    const taken = await tx.takeRefreshToken(hash);
    if (!taken) {
      const reused = await tx.rotatedRefreshTokenGrant(hash);
      if (reused && reused.application_id === app.id) {
        await tx.deleteGrantTokens(reused.id);
        await tx.publish({ kind: 'credential.revoked', user_id: reused.user_id });
      }
      return 'refused';
    }
    if (taken.grant.application_id !== app.id || taken.token.refresh_expires <= nowOf(ctx)) return 'refused';
    await tx.recordRotatedRefreshToken(taken.grant.id, hash, taken.token.refresh_expires);
    // The old access token ends with its refresh token: gateways drop it from their caches.
    await tx.publish({ kind: 'credential.revoked', user_id: taken.grant.user_id, token_hash: taken.token.access_token_hash });
    return issueTokens(ctx, tx, taken.grant, await grantUser(ctx, taken.grant));
  });
  if (outcome === 'refused') throw oauth2Error('invalid_grant', 'the refresh token is invalid, expired or already used');
  return outcome;
}

/** The token endpoint: authorization_code or refresh_token. */
export async function exchangeToken(ctx: OAuth2Context, request: TokenRequest): Promise<IssuedTokens> {
  if (request.grant_type !== 'authorization_code' && request.grant_type !== 'refresh_token') {
    throw oauth2Error('unsupported_grant_type', `grant_type ${JSON.stringify(request.grant_type)} is not supported`);
  }
  const app = await clientOf(ctx, request.client_id);
  authenticateClient(app, request.client_secret);
  return request.grant_type === 'authorization_code' ? exchangeCode(ctx, app, request) : refresh(ctx, app, request);
}
