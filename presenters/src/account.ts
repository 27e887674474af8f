// E-mail addresses and access tokens (services/convert: ToEmail, and the token literals in
// routers/api/v1/user/app.go).
import type { identity } from '@anvil/proto';
import { formatTime } from './time.js';

export function presentEmail(email: identity.Email) {
  return { email: email.email, verified: email.verified, primary: email.primary, user_id: email.user_id, username: email.username };
}

/** `sha1` carries the token itself, and only in the reply that created it. */
export function presentAccessToken(token: identity.AccessToken) {
  return {
    id: token.id,
    name: token.name,
    sha1: token.token,
    token_last_eight: token.token_last_eight,
    scopes: token.scopes,
    created_at: formatTime(token.created_at),
    last_used_at: formatTime(token.updated_at),
  };
}
