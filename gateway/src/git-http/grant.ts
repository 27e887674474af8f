// The side channel's grant (kit side-channel-grant.ts) for what ResolveRepository answered.
import { signGitGrant, toAccessMode, type Caller } from '@anvil/kit';
import type { repository } from '@anvil/proto';

export { GIT_GRANT_HEADER } from '@anvil/kit';

export function signGrant(secret: string, caller: Caller, access: repository.RepositoryAccess): string {
  const repo = access.repository!;
  return signGitGrant(secret, { caller, repositoryId: repo.id, owner: repo.owner_login, name: repo.name, permission: toAccessMode(access.permission) });
}
