// The grant the gateway sends the repository service's HTTP side channel (git packs,
// archives, raw files): who is calling and what ResolveRepository said they may do there,
// signed with the internal token. The service trusts nothing else on that channel.
import { signPayload, type Caller } from '@anvil/kit';
import type { repository } from '@anvil/proto';

export const GIT_GRANT_HEADER = 'x-anvil-git-grant';
/** A grant is good for this long: long enough to start the stream, short enough to be useless if leaked. */
const GRANT_TTL_MS = 60_000;

export function signGrant(secret: string, caller: Caller, access: repository.RepositoryAccess): string {
  const repo = access.repository!;
  return signPayload({
    caller, repositoryId: repo.id, owner: repo.owner_login, name: repo.name, permission: access.permission, expires: Date.now() + GRANT_TTL_MS,
  }, secret);
}
