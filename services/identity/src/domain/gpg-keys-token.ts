// The verification token a user signs to prove they hold a key (Gitea's
// models/asymkey VerificationToken): a hash of the minute and the account, valid for the
// minute it was issued in and the next.
import { createHash } from 'node:crypto';
import type { User } from './user.js';

const MINUTE = 60_000;

// Go's time.RFC1123Z, in UTC: "Mon, 02 Jan 2006 15:04:05 +0000".
function rfc1123z(date: Date): string {
  return date.toUTCString().replace('GMT', '+0000');
}

/** The token for the minute `now` falls in, moved by `minutes`. */
export function verificationToken(user: User, minutes: number, now = new Date()): string {
  const minute = new Date(Math.floor(now.getTime() / MINUTE) * MINUTE + minutes * MINUTE);
  const created = new Date(Math.floor(user.created_at.getTime() / 1000) * 1000);
  return createHash('sha256')
    .update(`${rfc1123z(minute)}:${rfc1123z(created)}:${user.login}:${user.email}:${user.id}`)
    .digest('hex');
}

/** What a signature may cover: the token, and the token with the newline gpg tools add. */
export function tokenPayloads(token: string): Uint8Array[] {
  return [token, `${token}\n`, `${token}\r\n`].map((text) => new TextEncoder().encode(text));
}
