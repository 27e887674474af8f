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

/**
 * Whom a list of followers or followings shows to its caller (Gitea's
 * isUserVisibleToViewerCond): every account, public ones only, or for a signed-in viewer
 * every account that is not private plus the private ones that follow the viewer or share
 * an organization with them (and the viewer).
 */
export type FollowViewer = { scope: 'all' } | { scope: 'public' } | { scope: 'signed'; viewer_id: number };

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
  /** Whether `userId` follows `followId`. */
  isFollowing(userId: number, followId: number): Promise<boolean>;
  /** The users (not organizations) following `userId` that `viewer` may see, in the order they followed. */
  followers(userId: number, viewer: FollowViewer, page: Page): Promise<Paged<User>>;
  /** The users and organizations `userId` follows that `viewer` may see, in the order followed. */
  following(userId: number, viewer: FollowViewer, page: Page): Promise<Paged<User>>;
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
  /**
   * `userId` follows `followId`: the row, and both users' counts. Answers both users as they
   * are now; none when the row existed; undefined when either user does not exist.
   */
  addFollow(userId: number, followId: number): Promise<User[] | undefined>;
  /** Removes the row and moves both counts back; answers both users, or none when there was no row. */
  removeFollow(userId: number, followId: number): Promise<User[]>;
  /** Removes every follow from and of the user (their deletion), answering the others whose counts moved. */
  forgetFollows(userId: number): Promise<User[]>;
  /** Queues an event in the same transaction; it is published after the commit. */
  publish(event: IdentityEvent): Promise<void>;
}

export interface IdentityStore extends IdentityReader {
  transaction<T>(work: (tx: IdentityWriter) => Promise<T>): Promise<T>;
  /** Records a token's use (Gitea's "last used"). */
  touchAccessToken(id: number, at: Date): Promise<void>;
}
