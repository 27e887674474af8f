// Reading users: one by id or login, a batch for presenters, and search (Gitea's
// models/user/search.go), narrowed to what the caller may see.
import { invalid, type Caller } from '@anvil/kit';
import { pageOf, requireSiteAdmin, userNotFound, type Identity } from './context.js';
import type { UserSearch, UserSort } from './store.js';
import type { Paged, User } from './user.js';

export type UserKey = { id: number } | { login: string };

/** Any account, organizations included: callers decide what a caller may see of it. */
export async function getUser(identity: Identity, key: UserKey | undefined): Promise<User> {
  if (!key) throw invalid('a user id or login is required', 'user_key_required');
  const user = 'id' in key
    ? key.id > 0 ? await identity.store.userById(key.id) : undefined
    : key.login ? await identity.store.userByLogin(key.login) : undefined;
  if (!user) throw userNotFound(key);
  return user;
}

export const MAX_BATCH = 1000;

/** The users named by id or login, in one query; unknown keys are left out. */
export async function getUsers(identity: Identity, ids: readonly number[], logins: readonly string[]): Promise<User[]> {
  const wantedIds = [...new Set(ids.filter((id) => Number.isSafeInteger(id) && id > 0))];
  const wantedLogins = [...new Set(logins.filter((login) => login !== '').map((login) => login.toLowerCase()))];
  if (wantedIds.length + wantedLogins.length === 0) return [];
  if (wantedIds.length + wantedLogins.length > MAX_BATCH) throw invalid(`at most ${MAX_BATCH} users per batch`, 'batch_too_large');
  return identity.store.usersByIdsOrLogins(wantedIds, wantedLogins);
}

/**
 * The users owning these e-mail addresses (Gitea's GetUserByEmail, batched for a page of
 * commits): verified addresses of users (never organizations); unknown addresses are left out.
 */
export async function getUsersByEmails(identity: Identity, emails: readonly string[]): Promise<{ email: string; user: User }[]> {
  const wanted = [...new Set(emails.filter((e) => e.includes('@')).map((e) => e.toLowerCase()))];
  if (wanted.length === 0) return [];
  if (wanted.length > MAX_BATCH) throw invalid(`at most ${MAX_BATCH} e-mails per batch`, 'batch_too_large');
  const owners = await identity.store.usersByEmails(wanted);
  const byEmail = new Map(owners.filter((o) => o.user.type === 'user').map((o) => [o.email, o.user]));
  return [...new Set(emails)].flatMap((email) => {
    const user = byEmail.get(email.toLowerCase());
    return user ? [{ email, user }] : [];
  });
}

export interface SearchUsersInput {
  q: string;
  uid: number;
  page?: { page?: number; limit?: number } | null;
  /** The admin listing: every account, filters on login source. */
  include_all: boolean;
  login_name: string;
  source_id: number;
  sort: string;
}

const SORTS: Record<string, UserSort> = {
  alphabetically: 'alphabetically',
  reversealphabetically: 'reversealphabetically',
  newest: 'newest',
  oldest: 'oldest',
  recentupdate: 'recentupdate',
  leastupdate: 'leastupdate',
};

/** Who the caller may find (Gitea's BuildCanSeeUserCondition and the public-only token scope). */
export function visibleTo(caller: Caller): UserSearch['visible'] {
  if (caller.scopes.includes('public-only')) return { scope: 'some', visibilities: ['public'], user_id: 0 };
  if (caller.isAdmin) return { scope: 'all' };
  if (caller.userId <= 0) return { scope: 'some', visibilities: ['public'], user_id: 0 };
  // Restricted users see only themselves (and, once organizations exist, their own).
  if (caller.restricted) return { scope: 'some', visibilities: [], user_id: caller.userId };
  return { scope: 'some', visibilities: ['public', 'limited'], user_id: caller.userId };
}

/** Whose e-mail addresses the keyword may match: private addresses only the owner's and an admin's. */
function emailMatchFor(caller: Caller): UserSearch['email_match'] {
  if (caller.isAdmin) return { scope: 'all' };
  return { scope: 'public', owner_id: Math.max(caller.userId, 0) };
}

export function userSearchOf(caller: Caller, input: SearchUsersInput, identity: Identity): UserSearch {
  if (input.include_all) requireSiteAdmin(caller);
  return {
    keyword: input.q.trim(),
    email_match: emailMatchFor(caller),
    visible: visibleTo(caller),
    only_active: !input.include_all,
    id: input.uid > 0 ? input.uid : undefined,
    login_name: input.include_all && input.login_name ? input.login_name : undefined,
    source_id: input.include_all && input.source_id > 0 ? input.source_id : undefined,
    sort: SORTS[input.sort] ?? 'id',
    page: pageOf(input.page, identity.settings),
  };
}

/** A page of matching users with the total; ordered by id unless a sort is named. */
export async function searchUsers(identity: Identity, caller: Caller, input: SearchUsersInput): Promise<Paged<User>> {
  return identity.store.searchUsers(userSearchOf(caller, input, identity));
}
