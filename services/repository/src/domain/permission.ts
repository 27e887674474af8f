// A caller's permission on a repository, computed in one place from plain facts so that
// organization ownership and team grants plug in as more facts.
import type { Caller } from '@anvil/kit';
import type { Repository } from './repository.js';

import { atLeast, type AccessMode } from '@anvil/kit';

export { ACCESS_MODES, atLeast, type AccessMode } from '@anvil/kit';
export type CollaboratorMode = 'read' | 'write' | 'admin';

export interface PermissionFacts {
  repository: Pick<Repository, 'owner_id' | 'private'>;
  owner: { visibility: 'public' | 'limited' | 'private' };
  caller: Pick<Caller, 'userId' | 'isAdmin' | 'restricted'> & { scopes?: readonly string[] };
  /** The caller's collaborator grant on this repository, if any. */
  collaboration?: CollaboratorMode;
  /** Grants through the caller's teams of the owning organization that have this repository. */
  teamModes?: AccessMode[];
  /** Whether the caller is in the owning organization's Owners team. */
  isOrgOwner?: boolean;
  /** Whether the caller is in any team of the owning organization (sees a private org). */
  isOrgMember?: boolean;
}

export function isPublicOnly(caller: { scopes?: readonly string[] }): boolean {
  return caller.scopes?.includes('public-only') ?? false;
}


function strongest(modes: AccessMode[]): AccessMode {
  return modes.reduce((best, m) => (atLeast(m, best) ? m : best), 'none' as AccessMode);
}

export function permissionOf(facts: PermissionFacts): AccessMode {
  const { repository, owner, caller } = facts;
  const signedIn = caller.userId > 0;
  // A `public-only` token sees no private repository, whoever holds it (Gitea's token scopes).
  if (repository.private && isPublicOnly(caller)) return 'none';
  if (signedIn && caller.userId === repository.owner_id) return 'owner';
  if (signedIn && caller.isAdmin) return 'admin';
  if (signedIn && facts.isOrgOwner) return 'owner';
  const granted = strongest([facts.collaboration ?? 'none', ...(facts.teamModes ?? [])]);
  if (granted !== 'none') return granted;
  // Public read: a public repository of an owner the caller may see. Restricted users see
  // only what they were explicitly given (Gitea's restricted accounts).
  if (repository.private || caller.restricted) return 'none';
  // A private organization's public repositories are visible to its members only.
  if (owner.visibility === 'private' && !facts.isOrgMember) return 'none';
  if (owner.visibility === 'limited' && !signedIn) return 'none';
  return 'read';
}

/** Gitea's Permission JSON for a mode. */
export function permissionFlags(mode: AccessMode): { admin: boolean; push: boolean; pull: boolean } {
  return { admin: atLeast(mode, 'admin'), push: atLeast(mode, 'write'), pull: atLeast(mode, 'read') };
}
