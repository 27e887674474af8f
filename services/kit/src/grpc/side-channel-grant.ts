// The grant the gateway sends the repository service's HTTP side channel (git packs,
// archives, raw files) in the x-anvil-git-grant header: who is calling and what
// ResolveRepository said they may do on which repository, signed with the internal token.
// The service trusts nothing else on that channel. One definition for both ends.
import type { AccessMode } from '../access-mode.js';
import { signPayload, verifyPayload, type Caller } from './caller.js';

export const GIT_GRANT_HEADER = 'x-anvil-git-grant';
/** A grant is good for this long: long enough to start the stream, short enough to be useless if leaked. */
export const GIT_GRANT_TTL_MS = 60_000;

export interface GitGrant {
  caller: Caller;
  repositoryId: number;
  owner: string;
  name: string;
  /** The mode as the repository service resolved it. */
  permission: AccessMode;
  /** Unix ms after which the grant is refused (replay bound). */
  expires: number;
}

export function signGitGrant(secret: string, grant: Omit<GitGrant, 'expires'>, now = Date.now()): string {
  return signPayload({ ...grant, expires: now + GIT_GRANT_TTL_MS } satisfies GitGrant, secret);
}

/** The grant in a header, or undefined when it is missing, forged or expired. */
export function readGitGrant(header: string | string[] | undefined, secret: string, now = Date.now()): GitGrant | undefined {
  if (typeof header !== 'string') return undefined;
  const grant = verifyPayload<GitGrant>(header, secret);
  if (!grant || typeof grant.expires !== 'number' || grant.expires < now) return undefined;
  return grant;
}
