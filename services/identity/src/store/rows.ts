// Table rows ↔ domain records. Columns and fields share names; only the encodings differ
// (bigint ids, smallint type and visibility, the login in `name` + `lower_name`).
import type { AccessToken, EmailAddress, User, UserFields, Visibility } from '../domain/user.js';
import type { Prisma, AccessToken as AccessTokenRow, EmailAddress as EmailAddressRow, User as UserRow } from './generated/client.js';

const VISIBILITIES: readonly Visibility[] = ['public', 'limited', 'private'];
const USER_TYPE_USER = 0;
const USER_TYPE_ORGANIZATION = 1;

export function toUser(row: UserRow): User {
  return {
    id: Number(row.id),
    type: row.type === USER_TYPE_ORGANIZATION ? 'organization' : 'user',
    login: row.name,
    full_name: row.full_name,
    email: row.email,
    keep_email_private: row.keep_email_private,
    passwd: row.passwd,
    must_change_password: row.must_change_password,
    source_id: Number(row.source_id),
    login_name: row.login_name,
    location: row.location,
    website: row.website,
    description: row.description,
    language: row.language,
    visibility: visibilityOf(row.visibility),
    is_admin: row.is_admin,
    active: row.active,
    restricted: row.restricted,
    prohibit_login: row.prohibit_login,
    max_repo_creation: row.max_repo_creation,
    allow_git_hook: row.allow_git_hook,
    allow_import_local: row.allow_import_local,
    allow_create_organization: row.allow_create_organization,
    num_stars: row.num_stars,
    num_followers: row.num_followers,
    num_following: row.num_following,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_login: row.last_login,
  };
}

export const visibilityNumber = (visibility: Visibility): number => VISIBILITIES.indexOf(visibility);
/** The visibility a smallint column stores; `fallback` for a number no visibility has. */
export const visibilityOf = (stored: number, fallback: Visibility = 'public'): Visibility => VISIBILITIES[stored] ?? fallback;
export const userTypeNumber = (type: User['type']): number => (type === 'organization' ? USER_TYPE_ORGANIZATION : USER_TYPE_USER);

/** Plain column values, fit for both an insert and an update. */
export type UserColumns = Partial<Omit<Prisma.UserUncheckedCreateInput, 'id'>>;

/** The columns for the given fields; fields left out are left out. */
export function userColumns(fields: Partial<UserFields>): UserColumns {
  const { login, type, visibility, source_id, ...same } = fields;
  const columns: UserColumns = { ...same };
  if (login !== undefined) {
    columns.name = login;
    columns.lower_name = login.toLowerCase();
  }
  if (type !== undefined) columns.type = userTypeNumber(type);
  if (visibility !== undefined) columns.visibility = visibilityNumber(visibility);
  if (source_id !== undefined) columns.source_id = BigInt(source_id);
  return columns;
}

export function toEmailAddress(row: EmailAddressRow): EmailAddress {
  return { id: Number(row.id), user_id: Number(row.user_id), email: row.email, verified: row.verified, is_primary: row.is_primary };
}

export function toAccessToken(row: AccessTokenRow): AccessToken {
  return {
    id: Number(row.id),
    user_id: Number(row.user_id),
    name: row.name,
    token_hash: row.token_hash,
    token_last_eight: row.token_last_eight,
    scopes: row.scopes,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
