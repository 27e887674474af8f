// What the rules need from storage. src/store/ implements it over PostgreSQL; unit tests
// use an in-memory fake. A change and the events announcing it are written in one
// transaction (the outbox), so `publish` exists only on the transaction's writer.
import type { AccessToken, EmailAddress, Page, Paged, User, UserFields, Visibility } from './user.js';

export type IdentityEvent =
  | { kind: 'user.created'; user: User }
  | { kind: 'user.updated'; user: User }
  | { kind: 'user.deleted'; user_id: number; login: string }
  /** Gateways drop cached credentials: the one token when `token_hash` is set, else all of the user's. */
  | { kind: 'credential.revoked'; user_id: number; token_hash?: string };

/** A unique index refused a write: two requests raced for the same login, address or name. */
export class UniqueViolation extends Error {
  constructor(readonly field: 'login' | 'email' | 'token_name' | 'token_hash' | 'team_name') {
    super(`unique violation on ${field}`);
  }
}

export type UserSort = 'id' | 'alphabetically' | 'reversealphabetically' | 'newest' | 'oldest' | 'recentupdate' | 'leastupdate';

/** A user search, already narrowed to what the caller may see. Only users (not organizations) match. */
export interface UserSearch {
  /** Case-insensitive substring of the login or full name; '' matches everyone. */
  keyword: string;
  /**
   * Whether the keyword may also match e-mail addresses: of everyone (`all`), or of users
   * who do not keep theirs private plus the user `owner_id` (`public`).
   */
  email_match: { scope: 'all' } | { scope: 'public'; owner_id: number } | { scope: 'none' };
  /** Users the caller may see: `all`, or those with one of `visibilities`, plus `user_id`. */
  visible: { scope: 'all' } | { scope: 'some'; visibilities: Visibility[]; user_id: number };
  /** Only users who may sign in (active, not login-prohibited). */
  only_active: boolean;
  id?: number;
  login_name?: string;
  source_id?: number;
  sort: UserSort;
  page: Page;
}

export interface IdentityReader {
  userById(id: number): Promise<User | undefined>;
  /** Case-insensitive. */
  userByLogin(login: string): Promise<User | undefined>;
  /** The owner of an address (any of their addresses, case-insensitive). */
  userByEmail(email: string): Promise<User | undefined>;
  /** Every user whose id or login (case-insensitive) is listed, in one query. */
  usersByIdsOrLogins(ids: number[], logins: string[]): Promise<User[]>;
  /** The owners of these addresses (lower-cased), verified addresses only, in one query. */
  usersByEmails(lowerEmails: string[]): Promise<{ email: string; user: User }[]>;
  searchUsers(search: UserSearch): Promise<Paged<User>>;
  /** The token with this hash and its user, in one query (Authenticate's hot read). */
  credentialByTokenHash(tokenHash: string): Promise<{ token: AccessToken; user: User } | undefined>;
  /** A user's addresses, oldest first. */
  emailsOf(userId: number): Promise<EmailAddress[]>;
  /** The address, whoever owns it (case-insensitive). */
  emailAddress(email: string): Promise<EmailAddress | undefined>;
  /** A user's tokens, newest first. */
  accessTokens(userId: number, page: Page): Promise<Paged<AccessToken>>;
  accessTokensNamed(userId: number, name: string): Promise<AccessToken[]>;
  /** How many organizations the user belongs to (a member cannot be deleted, as in Gitea). */
  countOrgMemberships(userId: number): Promise<number>;
}

export interface IdentityWriter extends IdentityReader {
  /** Reads a user and locks the row until the transaction ends. */
  lockUserByLogin(login: string): Promise<User | undefined>;
  lockUserById(id: number): Promise<User | undefined>;
  /** Counts site administrators, locking their rows (the last one must stay). */
  countAdminsLocked(): Promise<number>;
  /** Throws UniqueViolation('login') when the login is taken. */
  insertUser(fields: UserFields, created?: Date): Promise<User>;
  /** Sets the given fields and `updated`; throws UniqueViolation('login') when a new login is taken. */
  updateUser(id: number, patch: Partial<UserFields>): Promise<User>;
  /** Removes the user with their addresses and tokens. */
  deleteUser(id: number): Promise<void>;
  /** Throws UniqueViolation('email') when any user has the address. */
  insertEmail(email: Omit<EmailAddress, 'id'>): Promise<EmailAddress>;
  deleteEmail(id: number): Promise<void>;
  /** Throws UniqueViolation('token_name') when the user has a token of that name. */
  insertAccessToken(token: Omit<AccessToken, 'id' | 'created_at' | 'updated_at'>): Promise<AccessToken>;
  /** Deletes the user's token with this id; undefined when there is none. */
  deleteAccessToken(id: number, userId: number): Promise<AccessToken | undefined>;
  /** Queues an event in the same transaction; it is published after the commit. */
  publish(event: IdentityEvent): Promise<void>;
}

export interface IdentityStore extends IdentityReader {
  transaction<T>(work: (tx: IdentityWriter) => Promise<T>): Promise<T>;
  /** Records a token's use (Gitea's "last used"). */
  touchAccessToken(id: number, at: Date): Promise<void>;
}
