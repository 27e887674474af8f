// OAuth2 records and what the OAuth2 rules need from storage (src/store/oauth2-store.ts
// implements it over PostgreSQL; unit tests use an in-memory fake). Every secret — client
// secret, code, access and refresh token — is stored only as its SHA-256.
import type { Settings } from '@anvil/kit';
import type { Identity } from './context.js';
import type { IdentityEvent } from './store.js';
import type { Page, Paged, User } from './user.js';

export interface OAuth2Application {
  id: number;
  user_id: number;
  name: string;
  client_id: string;
  client_secret_hash: string;
  redirect_uris: string[];
  confidential_client: boolean;
  skip_secondary_authorization: boolean;
  created_at: Date;
  updated_at: Date;
}

export type OAuth2ApplicationFields = Omit<OAuth2Application, 'id' | 'created_at' | 'updated_at'>;

/** A user's consent to an application; its tokens carry `scopes`. */
export interface OAuth2Grant {
  id: number;
  user_id: number;
  application_id: number;
  scopes: string[];
}

export interface OAuth2AuthorizationCode {
  grant_id: number;
  code_hash: string;
  redirect_uri: string;
  code_challenge: string;
  /** '' (no PKCE), 'plain' or 'S256'. */
  code_challenge_method: string;
  valid_until: Date;
}

export interface OAuth2Token {
  grant_id: number;
  access_token_hash: string;
  refresh_token_hash: string;
  access_expires: Date;
  refresh_expires: Date;
}

export interface OAuth2Reader {
  /** The user's applications, oldest first. */
  applications(userId: number, page: Page): Promise<Paged<OAuth2Application>>;
  application(id: number): Promise<OAuth2Application | undefined>;
  applicationByClientId(clientId: string): Promise<OAuth2Application | undefined>;
  /** The access token with its grant and user, in one query (Authenticate's hot read). */
  accessToken(accessTokenHash: string): Promise<{ token: OAuth2Token; grant: OAuth2Grant; user: User } | undefined>;
}

export interface OAuth2Writer extends OAuth2Reader {
  insertApplication(fields: OAuth2ApplicationFields): Promise<OAuth2Application>;
  updateApplication(id: number, patch: Partial<OAuth2ApplicationFields>): Promise<OAuth2Application>;
  /** Deletes the application with its grants, codes and tokens; answers the users who had grants. */
  deleteApplication(id: number): Promise<number[]>;
  /** The grant of this user for this application, created or given these scopes. */
  saveGrant(userId: number, applicationId: number, scopes: string[]): Promise<OAuth2Grant>;
  insertCode(code: OAuth2AuthorizationCode): Promise<void>;
  /** Removes and answers the code with this hash (so it can be used once), with its grant. */
  takeCode(codeHash: string): Promise<{ code: OAuth2AuthorizationCode; grant: OAuth2Grant } | undefined>;
  insertToken(token: OAuth2Token): Promise<void>;
  /** Removes the grant's codes, token pairs and rotated refresh tokens that expired before `now` (no sweeper needed). */
  deleteExpired(grantId: number, now: Date): Promise<void>;
  /** Removes and answers the token pair whose refresh token has this hash, with its grant. */
  takeRefreshToken(refreshTokenHash: string): Promise<{ token: OAuth2Token; grant: OAuth2Grant } | undefined>;
  /** Remembers a refresh token that was exchanged, until `refresh_expires`. */
  recordRotatedRefreshToken(grantId: number, refreshTokenHash: string, refreshExpires: Date): Promise<void>;
  /** The grant a refresh token was issued for if it was already exchanged; with its user. */
  rotatedRefreshTokenGrant(refreshTokenHash: string): Promise<OAuth2Grant | undefined>;
  /** Removes every token pair of the grant. */
  deleteGrantTokens(grantId: number): Promise<void>;
  publish(event: IdentityEvent): Promise<void>;
}

export interface OAuth2Store extends OAuth2Reader {
  transaction<T>(work: (tx: OAuth2Writer) => Promise<T>): Promise<T>;
}

/** Lifetimes, from Gitea's [oauth2] section. */
export interface OAuth2Settings {
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  codeSeconds: number;
}

export const DEFAULT_OAUTH2_SETTINGS: OAuth2Settings = {
  accessTokenSeconds: 3600, // ACCESS_TOKEN_EXPIRATION_TIME
  refreshTokenSeconds: 730 * 3600, // REFRESH_TOKEN_EXPIRATION_TIME (730 h)
  codeSeconds: 600,
};

export function oauth2Settings(settings: Settings): OAuth2Settings {
  return {
    accessTokenSeconds: settings.oauth2.ACCESS_TOKEN_EXPIRATION_TIME,
    refreshTokenSeconds: settings.oauth2.REFRESH_TOKEN_EXPIRATION_TIME * 3600,
    codeSeconds: DEFAULT_OAUTH2_SETTINGS.codeSeconds,
  };
}

/** What the OAuth2 rules work with: identity's own context (users) plus OAuth2 storage. */
export interface OAuth2Context {
  identity: Identity;
  store: OAuth2Store;
  settings: OAuth2Settings;
  now?(): Date;
}
