// What every rule works with: storage, the password hasher and the settings identity reads
// from Gitea-style configuration. Also the caller checks only identity can make (the
// gateway has checked token scopes; who may act on which account is decided here).
import { DomainError, forbidden, notFound, type Caller, type Settings } from '@anvil/kit';
import type { PasswordHasher } from './password.js';
import type { OAuth2Reader } from './oauth2.js';
import type { IdentityStore } from './store.js';
import type { Page, User, Visibility } from './user.js';

export interface IdentitySettings {
  /** [security] MIN_PASSWORD_LENGTH, in bytes as Gitea counts. */
  minPasswordLength: number;
  /** [api] DEFAULT_PAGING_NUM and MAX_RESPONSE_ITEMS. */
  defaultPageSize: number;
  maxPageSize: number;
  /** [service] defaults for new accounts. */
  newUser: { keep_email_private: boolean; allow_create_organization: boolean; visibility: Visibility };
}

export interface Identity {
  store: IdentityStore;
  hasher: PasswordHasher;
  settings: IdentitySettings;
  /** OAuth2 access tokens, which Authenticate accepts like personal access tokens. */
  oauth2?: Pick<OAuth2Reader, 'accessToken'>;
}

export function identitySettings(settings: Settings): IdentitySettings {
  return {
    minPasswordLength: settings.security.MIN_PASSWORD_LENGTH,
    defaultPageSize: settings.api.DEFAULT_PAGING_NUM,
    maxPageSize: settings.api.MAX_RESPONSE_ITEMS,
    newUser: {
      keep_email_private: settings.service.DEFAULT_KEEP_EMAIL_PRIVATE,
      allow_create_organization: settings.service.DEFAULT_ALLOW_CREATE_ORGANIZATION,
      visibility: settings.service.DEFAULT_USER_VISIBILITY,
    },
  };
}

/** The page asked for, with Gitea's defaults: page 1, DEFAULT_PAGING_NUM, at most MAX_RESPONSE_ITEMS. */
export function pageOf(request: { page?: number; limit?: number } | null | undefined, settings: IdentitySettings): Page {
  const page = Math.max(1, Math.trunc(request?.page ?? 0) || 1);
  const asked = Math.trunc(request?.limit ?? 0);
  const limit = asked > 0 ? Math.min(asked, settings.maxPageSize) : settings.defaultPageSize;
  return { page, limit };
}

/** Creating, editing and deleting accounts and listing every account are site-admin work. */
export function requireSiteAdmin(caller: Caller): void {
  if (!caller.isAdmin) throw forbidden('user should be the site admin', 'site_admin_required');
}

/** A user's tokens and addresses are theirs and the site administrators'. */
export function requireSelfOrAdmin(caller: Caller, userId: number): void {
  if (!caller.isAdmin && caller.userId !== userId) {
    throw forbidden('doer should be the site admin or be same as the contextUser', 'not_self_or_admin');
  }
}

export function userNotFound(key: { id?: number; login?: string }): DomainError {
  return notFound(`user does not exist [uid: ${key.id ?? 0}, name: ${key.login ?? ''}]`, 'user_not_found');
}

/** The user an account operation is about; organizations are not user accounts. */
export async function existingUser(identity: Identity, id: number): Promise<User> {
  const user = id > 0 ? await identity.store.userById(id) : undefined;
  if (!user || user.type !== 'user') throw userNotFound({ id });
  return user;
}
