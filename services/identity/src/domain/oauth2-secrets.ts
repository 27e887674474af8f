// Values OAuth2 hands out once: client ids (UUIDs, public), client secrets, authorization
// codes, access and refresh tokens (256 random bits each, stored as SHA-256 like personal
// access tokens: that much entropy needs neither a slow hash nor a salt). The prefixes tell
// the kinds apart, so Authenticate knows an OAuth2 access token without a lookup.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { hashToken } from './tokens.js';

export const ACCESS_TOKEN_PREFIX = 'gta_';
const SECRET = /^gt[aorc]_[0-9a-f]{64}$/;

const value = (prefix: string) => `${prefix}${randomBytes(32).toString('hex')}`;

export const newClientId = (): string => randomUUID();
export const newClientSecret = (): string => value('gto_');
export const newAuthorizationCode = (): string => value('gtc_');
export const newAccessToken = (): string => value(ACCESS_TOKEN_PREFIX);
export const newRefreshToken = (): string => value('gtr_');

export const hashSecret = hashToken;

export function looksLikeAccessToken(token: string): boolean {
  return token.startsWith(ACCESS_TOKEN_PREFIX) && SECRET.test(token);
}

/** Whether `presented` hashes to `hash`, in constant time. */
export function secretMatches(presented: string, hash: string): boolean {
  const a = Buffer.from(hashSecret(presented), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
