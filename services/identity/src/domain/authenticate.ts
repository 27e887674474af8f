// Turns a presented credential into a user and what it grants (Gitea's services/auth:
// access tokens, HTTP Basic with a password, a token as the Basic password, or a token as
// the Basic username with an empty or `x-oauth-basic` password).
import { DomainError } from '@anvil/kit';
import type { Identity } from './context.js';
import { looksLikeAccessToken } from './oauth2-secrets.js';
import { hashToken, looksLikeToken } from './tokens.js';
import type { User } from './user.js';

export type Credential =
  | { kind: 'token'; token: string }
  | { kind: 'basic'; username: string; password: string };

export interface Authenticated {
  user: User;
  /** Gitea scope names; a password grants `all`. */
  scopes: string[];
  method: 'token' | 'password' | 'oauth2';
  /** sha256 of the token (methods `token`, `oauth2`): gateways cache under it; revocations name it. */
  token_hash: string;
}

/** Gitea persists a token's "last used" at most this often (AccessTokenUseInterval). */
export const TOKEN_USE_INTERVAL_MS = 30_000;

const wrongCredential = () => new DomainError('unauthenticated', 'invalid username, password or token', 'unauthenticated');

/**
 * An inactive or login-prohibited account cannot authenticate. Gitea answers 403 for both
 * (only after the credential itself was right, so the answer reveals nothing to a guesser).
 */
function assertMaySignIn(user: User): void {
  const message = 'This account is prohibited from signing in, please contact your site administrator.';
  if (user.prohibit_login) throw new DomainError('forbidden', message, 'user_prohibit_login');
  if (!user.active) throw new DomainError('forbidden', message, 'user_inactive');
}

/** An OAuth2 access token: its grant's scopes, until it expires or the grant goes. */
async function byOAuth2Token(identity: Identity, token: string): Promise<Authenticated | undefined> {
  const token_hash = hashToken(token);
  const found = await identity.oauth2?.accessToken(token_hash);
  if (!found || found.user.type !== 'user' || found.token.access_expires <= new Date()) return undefined;
  assertMaySignIn(found.user);
  return { user: found.user, scopes: found.grant.scopes, method: 'oauth2', token_hash };
}

async function byToken(identity: Identity, token: string): Promise<Authenticated | undefined> {
  if (looksLikeAccessToken(token)) return byOAuth2Token(identity, token);
  if (!looksLikeToken(token)) return undefined;
  const token_hash = hashToken(token);
  const found = await identity.store.credentialByTokenHash(token_hash);
  if (!found || found.user.type !== 'user') return undefined;
  assertMaySignIn(found.user);
  const now = new Date();
  if (now.getTime() - found.token.updated_at.getTime() >= TOKEN_USE_INTERVAL_MS) {
    await identity.store.touchAccessToken(found.token.id, now);
  }
  return { user: found.user, scopes: found.token.scopes, method: 'token', token_hash };
}

async function byPassword(identity: Identity, username: string, password: string): Promise<Authenticated | undefined> {
  // Gitea signs in by e-mail address when the name has an @.
  const user = username.includes('@') ? await identity.store.userByEmail(username) : await identity.store.userByLogin(username);
  const ok = user && user.type === 'user' && user.passwd !== ''
    ? await identity.hasher.verify(user.passwd, password)
    : await identity.hasher.verifyNothing(password);
  if (!ok || !user) return undefined;
  assertMaySignIn(user);
  return { user, scopes: ['all'], method: 'password', token_hash: '' };
}

export async function authenticate(identity: Identity, credential: Credential | undefined): Promise<Authenticated> {
  let result: Authenticated | undefined;
  if (credential?.kind === 'token') {
    result = await byToken(identity, credential.token);
  } else if (credential?.kind === 'basic') {
    const { username, password } = credential;
    if (password === '' || password === 'x-oauth-basic') {
      result = await byToken(identity, username);
    } else {
      // Git clients send a token as the Basic password; as in Gitea, the username is not checked then.
      result = (await byToken(identity, password)) ?? (await byPassword(identity, username, password));
    }
  }
  if (!result) throw wrongCredential();
  return result;
}
