// The caller and repository scope the collaboration integration tests act with: ada, owner
// of repositories `repo-<id>` (what the gateway would have resolved and signed).
import type { Caller, RepositoryScope } from '@anvil/kit';

export const ada: Caller = { userId: 7, login: 'ada', isAdmin: false, restricted: false, scopes: ['all'] };

export function adaScope(id: number): RepositoryScope {
  return {
    permission: 'owner',
    repository: { id, owner_id: 7, owner_login: 'ada', name: `repo-${id}`, private: false, archived: false } as RepositoryScope['repository'],
    owner: { id: 7, login: 'ada', type: 'user' } as RepositoryScope['owner'],
  };
}
