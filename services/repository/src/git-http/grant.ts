// The grant the gateway sends with every proxied git request (header x-anvil-git-grant),
// signed with the internal secret: who is calling and what they may do on which
// repository. The gateway resolved it with ResolveRepository; this service trusts nothing else.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifyPayload, type Caller } from '@anvil/kit';
import { atLeast, type AccessMode } from '../domain/permission.js';
import { fail } from './reply.js';

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

/**
 * The request's grant when it names this repository (`owner`/`name` as they came in the
 * path, still encoded) and allows `need`; otherwise answers the refusal and returns nothing.
 */
export function authorize(
  req: IncomingMessage, res: ServerResponse, path: { owner: string; name: string }, need: AccessMode, secret: string,
): GitGrant | undefined {
  let owner: string, name: string;
  try {
    [owner, name] = [decodeURIComponent(path.owner), decodeURIComponent(path.name)];
  } catch {
    fail(res, 404, 'not found');
    return undefined;
  }
  const grant = readGrant(req.headers[GIT_GRANT_HEADER], secret);
  if (!grant || grant.owner.toLowerCase() !== owner.toLowerCase() || grant.name.toLowerCase() !== name.toLowerCase()) {
    fail(res, 403, 'missing or invalid grant');
    return undefined;
  }
  if (!atLeast(grant.permission, need)) {
    fail(res, 403, 'permission denied');
    return undefined;
  }
  return grant;
}
