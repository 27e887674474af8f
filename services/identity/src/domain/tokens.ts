// Personal access token values: 20 random bytes shown once as 40 hex digits (as Gitea's),
// stored only as their SHA-256. A token carries 160 bits of entropy, so its hash cannot be
// reversed by guessing: unlike a password it needs neither a slow hash nor a salt, and a
// plain digest lets Authenticate find the token by an indexed equality lookup.
import { createHash, randomBytes } from 'node:crypto';

const TOKEN = /^[0-9a-f]{40}$/;

export interface NewToken {
  token: string;
  token_hash: string;
  token_last_eight: string;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Whether a string can be one of our tokens at all (saves a lookup for anything else). */
export function looksLikeToken(value: string): boolean {
  return TOKEN.test(value);
}

export function newToken(): NewToken {
  const token = randomBytes(20).toString('hex');
  return { token, token_hash: hashToken(token), token_last_eight: token.slice(-8) };
}

const INT64_MAX = (1n << 63n) - 1n;
const INT64_MIN = -(1n << 63n);

const DIGITS: Record<number, string> = { 2: '[01]', 8: '[0-7]', 10: '[0-9]', 16: '[0-9a-fA-F]' };

/**
 * Go's `strconv.ParseInt(s, 0, 64)` as Gitea's DELETE /users/{username}/tokens/{token}
 * uses it: sign, base prefixes (0x, 0o, 0b, a leading 0 for octal), underscores between
 * digits. Undefined when `s` is not a number (Gitea then reads it as 0 and looks the token
 * up by name); an out-of-range value is clamped, as Go returns it alongside its error.
 */
export function parseGoInt(s: string): bigint | undefined {
  let rest = s;
  let negative = false;
  if (rest.startsWith('+') || rest.startsWith('-')) {
    negative = rest[0] === '-';
    rest = rest.slice(1);
  }
  let base = 10;
  let prefix = '';
  let prefixed = false;
  const marker = rest.length > 1 && rest[0] === '0' ? rest[1].toLowerCase() : '';
  if (marker === 'x' || marker === 'o' || marker === 'b') {
    base = marker === 'x' ? 16 : marker === 'o' ? 8 : 2;
    prefix = `0${marker}`;
    rest = rest.slice(2);
    prefixed = true;
  } else if (rest.length > 1 && rest[0] === '0') {
    base = 8;
    prefix = '0o';
    rest = rest.slice(1);
    prefixed = true;
  }
  const d = DIGITS[base];
  const shape = new RegExp(prefixed ? `^_?${d}+(?:_${d}+)*$` : `^${d}+(?:_${d}+)*$`);
  if (!shape.test(rest)) return undefined;
  let value = BigInt(`${prefix}${rest.replaceAll('_', '')}`);
  if (negative) value = -value;
  if (value > INT64_MAX) return INT64_MAX;
  if (value < INT64_MIN) return INT64_MIN;
  return value;
}
