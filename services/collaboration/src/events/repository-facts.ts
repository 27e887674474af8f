// What an issue, comment or pull event says of its repository beyond the row and its owner:
// the sender's permission there and a fork's parent, as the gateway resolved them (the
// signed scope). Gitea's webhook notifier presents the payload's repository with them.
import type { RepositoryScope } from '@anvil/kit';
import type { repository } from '@anvil/proto';

export function payloadRepositoryFacts(scope: RepositoryScope) {
  return {
    sender_permission: scope.permission ?? '',
    repository_parent: (scope.parent ?? undefined) as unknown as repository.RepositoryAccessInput | undefined,
  };
}
