// Domain records → identity's protobuf messages (gRPC replies and event payloads share them).
import { timestamp, visibilityName, visibilityNumber, type identity } from '@anvil/proto';
import type { UserEmail } from '../domain/emails.js';
import type { AccessToken, User, Visibility } from '../domain/user.js';

/** The domain's visibility of a request's enum; undefined when unset. */
export function visibilityOf(value: identity.Visibility | undefined | null): Visibility | undefined {
  return value == null ? undefined : visibilityName(value);
}

export { dateOf, timestamp } from '@anvil/proto';

/** The User message; the password hash never leaves the service. */
export function userMessage(user: User): identity.UserInput {
  return {
    id: user.id,
    login: user.login,
    full_name: user.full_name,
    email: user.email,
    is_admin: user.is_admin,
    active: user.active,
    prohibit_login: user.prohibit_login,
    restricted: user.restricted,
    location: user.location,
    website: user.website,
    description: user.description,
    visibility: visibilityNumber(user.visibility),
    language: user.language,
    created_at: timestamp(user.created_at),
    last_login: user.last_login ? timestamp(user.last_login) : null,
    login_name: user.login_name,
    source_id: user.source_id,
    max_repo_creation: user.max_repo_creation,
    must_change_password: user.must_change_password,
    keep_email_private: user.keep_email_private,
    allow_create_organization: user.allow_create_organization,
    allow_git_hook: user.allow_git_hook,
    allow_import_local: user.allow_import_local,
    type: user.type,
    num_stars: user.num_stars,
    num_followers: user.num_followers,
    num_following: user.num_following,
  };
}

export function emailMessage(email: UserEmail): identity.EmailInput {
  return { email: email.email, verified: email.verified, primary: email.is_primary, user_id: email.user_id, username: email.login };
}

/** `token` is set only in the reply that created it. */
export function accessTokenMessage(token: AccessToken & { token?: string }): identity.AccessTokenInput {
  return {
    id: token.id,
    name: token.name,
    token: token.token ?? '',
    token_last_eight: token.token_last_eight,
    scopes: token.scopes,
    created_at: timestamp(token.created_at),
    updated_at: timestamp(token.updated_at),
  };
}
