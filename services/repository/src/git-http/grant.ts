// Checks the grant the gateway sends with every proxied git request (kit
// side-channel-grant.ts): the gateway resolved it with ResolveRepository; this service
// trusts nothing else.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { atLeast, GIT_GRANT_HEADER, readGitGrant, type AccessMode, type GitGrant } from '@anvil/kit';
import { fail } from './reply.js';

export type { GitGrant } from '@anvil/kit';

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
  const grant = readGitGrant(req.headers[GIT_GRANT_HEADER], secret);
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
