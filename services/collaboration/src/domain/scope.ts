// The repository a call works in, as the gateway resolved it for the caller and sent in
// the signed metadata (kit grpc/repository-scope.ts). Collaboration never asks the
// repository service on a request: it trusts this, and refuses a call that lacks it.
import { forbidden, notFound, toAccessMode, type AccessMode, type RepositoryScope } from '@anvil/kit';

export { atLeast, type AccessMode } from '@anvil/kit';

export interface ScopedRepository {
  id: number;
  ownerId: number;
  ownerLogin: string;
  /** Organization labels apply in an organization's repositories. */
  ownerIsOrg: boolean;
  name: string;
  isPrivate: boolean;
  isArchived: boolean;
  permission: AccessMode;
  /** The resolution as received, for the events (their repository and its owner). */
  scope: RepositoryScope;
}


/**
 * The repository of the call, or not found when the gateway sent none or the caller may not
 * see it (a private repository is a 404, never a 403).
 */
export function scopedRepository(scope: RepositoryScope | undefined): ScopedRepository {
  const repo = scope?.repository;
  const permission = toAccessMode(scope?.permission);
  if (!scope || !repo || !repo.id || permission === 'none') throw notFound('The target couldn\'t be found.', 'repository_not_found');
  return {
    id: Number(repo.id), ownerId: Number(repo.owner_id), ownerLogin: repo.owner_login, ownerIsOrg: scope.owner?.type === 'organization',
    name: repo.name, isPrivate: repo.private, isArchived: repo.archived, permission, scope,
  };
}

/** Gitea's mustNotBeArchived: every issue write in an archived repository is refused (423 at the gateway). */
export function requireNotArchived(repo: ScopedRepository): void {
  if (repo.isArchived) throw forbidden('repo is archived', 'repo_archived');
}
