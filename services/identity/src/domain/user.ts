// The identity domain's records. Field names are the .proto's (and the table's), so a
// concept keeps one name from the wire to the database.

export type Visibility = 'public' | 'limited' | 'private';
export type UserType = 'user' | 'organization';

export interface User {
  id: number;
  type: UserType;
  login: string;
  full_name: string;
  /** The primary e-mail address. */
  email: string;
  keep_email_private: boolean;
  /** argon2id PHC string; empty when the account has no password. Never leaves the service. */
  passwd: string;
  must_change_password: boolean;
  source_id: number;
  login_name: string;
  location: string;
  website: string;
  description: string;
  language: string;
  visibility: Visibility;
  is_admin: boolean;
  active: boolean;
  restricted: boolean;
  prohibit_login: boolean;
  max_repo_creation: number;
  allow_git_hook: boolean;
  allow_import_local: boolean;
  allow_create_organization: boolean;
  /** How many repositories the user stars: counted from repository's events, never set by a change to the user. */
  num_stars: number;
  /** How many users follow the account and how many accounts it follows: moved by following, never set by a change to the user. */
  num_followers: number;
  num_following: number;
  created_at: Date;
  updated_at: Date;
  last_login: Date | null;
}

export interface EmailAddress {
  id: number;
  user_id: number;
  email: string;
  verified: boolean;
  is_primary: boolean;
}

export interface AccessToken {
  id: number;
  user_id: number;
  name: string;
  token_hash: string;
  token_last_eight: string;
  scopes: string[];
  created_at: Date;
  updated_at: Date;
}

/** The columns of a user a change may set (a new row takes defaults for the rest). */
export type UserFields = Omit<User, 'id' | 'num_stars' | 'num_followers' | 'num_following' | 'created_at' | 'updated_at'>;

/** What every paged list shares: a 1-based page and a page size. */
export interface Page {
  page: number;
  limit: number;
}

export interface Paged<T> {
  items: T[];
  total: number;
}
