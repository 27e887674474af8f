// PKCE (RFC 7636): the client binds a code to a secret verifier it keeps, so a stolen code
// is useless. S256 is one SHA-256; `plain` compares the strings.
import { createHash, timingSafeEqual } from 'node:crypto';

export type ChallengeMethod = 'S256' | 'plain';

// code_verifier and code_challenge: 43–128 characters of the unreserved set (RFC 7636 §4.1).
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** The method a client asked for; '' with a challenge means plain (RFC 7636 §4.3). Undefined: unsupported. */
export function challengeMethodOf(method: string, challenge: string): ChallengeMethod | '' | undefined {
  if (challenge === '') return method === '' ? '' : undefined;
  if (method === '' || method === 'plain') return 'plain';
  if (method === 'S256') return 'S256';
  return undefined;
}

export const isValidChallenge = (challenge: string): boolean => PKCE_VALUE.test(challenge);

export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Whether `verifier` answers the challenge stored with the code. */
export function verifyCodeVerifier(method: ChallengeMethod, challenge: string, verifier: string): boolean {
  if (!PKCE_VALUE.test(verifier)) return false;
  const expected = Buffer.from(challenge, 'ascii');
  const actual = Buffer.from(method === 'S256' ? s256Challenge(verifier) : verifier, 'ascii');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
