// The grant the gateway sends with every proxied git request (header x-anvil-git-grant),
// signed with the internal secret: who is calling and what they may do on which
// repository. The gateway resolved it with ResolveRepository; this service trusts nothing else.
import { verifyPayload, type Caller } from '@anvil/kit';
import type { AccessMode } from '../domain/permission.js';

export const GIT_GRANT_HEADER = 'x-anvil-git-grant';

export interface GitGrant {
  caller: Caller;
  repositoryId: number;
  owner: string;
  name: string;
  permission: AccessMode;
  /** Unix ms after which the grant is refused (replay bound). */
  expires: number;
}

export function readGrant(header: string | string[] | undefined, secret: string, now = Date.now()): GitGrant | undefined {
  if (typeof header !== 'string') return undefined;
  const grant = verifyPayload<GitGrant>(header, secret);
  if (!grant || typeof grant.expires !== 'number' || grant.expires < now) return undefined;
  return grant;
}
