// identity.User → Gitea's User JSON (services/convert/user.go toUser). What a caller sees
// depends on who they are: anonymous callers get a placeholder e-mail (spec: "e-mail
// hidden when the caller is not signed in"); a user with keep_email_private shows it only
// to themselves and admins; login details only to themselves and admins.
import { createHash } from 'node:crypto';
import type { Caller } from '@anvil/kit';
import type { identity } from '@anvil/proto';
import { formatTime } from './time.js';
import { visibilityName } from './visibility.js';

export { visibilityName };

/** Gitea's IsUserVisibleToViewer for users: limited needs a signed-in viewer, private the user or an admin. */
export function isUserVisibleTo(user: identity.User, caller: Caller): boolean {
  const visibility = visibilityName(user.visibility);
  if (visibility === 'public') return true;
  if (caller.userId <= 0) return false;
  return visibility === 'limited' || caller.isAdmin || caller.userId === user.id;
}

// Every repository and user in every reply carries an avatar URL: remember the md5 of the
// few thousand addresses seen lately instead of hashing on each request.
const AVATAR_HASHES_KEPT = 10_000;
const avatarHashes = new Map<string, string>();

function avatarHash(address: string): string {
  let hash = avatarHashes.get(address);
  if (hash === undefined) {
    hash = createHash('md5').update(address).digest('hex');
    if (avatarHashes.size >= AVATAR_HASHES_KEPT) avatarHashes.clear();
    avatarHashes.set(address, hash);
  }
  return hash;
}

export function avatarUrl(user: identity.User, rootUrl: string): string {
  return `${rootUrl}avatars/${avatarHash((user.email || user.login).trim().toLowerCase())}`;
}

import { hostOf } from '@anvil/kit';

export { hostOf };

/**
 * A user with every field present. Read models (collaboration's users, repository's owners)
 * keep identity's User message as last received, and a user some service learned from a
 * caller or an event has only a few fields: the rest take the values of a plain new user.
 */
export function completeUser(user: Partial<identity.User>): identity.User {
  return {
    id: 0, login: '', full_name: '', email: '', is_admin: false, active: true, prohibit_login: false, restricted: false,
    location: '', website: '', description: '', visibility: 'VISIBILITY_PUBLIC', language: '', created_at: null, last_login: null,
    login_name: '', source_id: 0, max_repo_creation: -1, must_change_password: false, keep_email_private: false,
    allow_create_organization: false, allow_git_hook: false, allow_import_local: false, type: 'user',
    // Identity publishes user.updated when the count moves, so read models follow it.
    num_stars: 0, num_followers: 0, num_following: 0,
    ...user,
  } as identity.User;
}

export function presentUser(user: identity.User, caller: Caller, rootUrl: string) {
  const signed = caller.userId > 0;
  const authed = signed && (caller.isAdmin || caller.userId === user.id);
  const noReplyHost = hostOf(rootUrl);
  const showEmail = signed && (!user.keep_email_private || authed);
  return {
    id: user.id,
    login: user.login,
    login_name: authed ? user.login_name : '',
    source_id: authed ? user.source_id : 0,
    full_name: user.full_name,
    email: showEmail ? user.email : `${user.login.toLowerCase()}@noreply.${noReplyHost}`,
    avatar_url: avatarUrl(user, rootUrl),
    html_url: `${rootUrl}${encodeURIComponent(user.login)}`,
    language: authed ? user.language : '',
    is_admin: authed ? user.is_admin : false,
    last_login: authed ? formatTime(user.last_login) : formatTime(null),
    created: formatTime(user.created_at),
    restricted: user.restricted,
    active: authed ? user.active : false,
    prohibit_login: authed ? user.prohibit_login : false,
    location: user.location,
    website: user.website,
    description: user.description,
    visibility: visibilityName(user.visibility),
    // Identity moves both counts in the follow's transaction and announces the users, so read
    // models elsewhere (repository owners, issue posters) follow a moment later.
    followers_count: user.num_followers ?? 0,
    following_count: user.num_following ?? 0,
    // Identity counts stars from repository's star events, so the count follows a star within
    // moments; GET /user answers from the gateway's credential cache, up to 10 s older still
    // (auth/credential-cache.ts). Gitea counts in the star's transaction; the lag is accepted.
    starred_repos_count: user.num_stars ?? 0,
    // Gitea's User.MarshalJSON adds `username` (= login) for older clients that read it.
    username: user.login,
  };
}
