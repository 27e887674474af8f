// Collaborators: users a repository's admins grant read, write or admin access.
import { forbidden, invalid, notFound, type Caller } from '@anvil/kit';
import type { Owner } from './owner.js';
import { atLeast, type AccessMode, type CollaboratorMode } from './permission.js';
import { permissionOfUser, requirePermission, resolveRepository } from './repositories.js';
import type { CollaboratorRow, RepositoryStore } from './store.js';

const MODES: readonly CollaboratorMode[] = ['read', 'write', 'admin'];

async function userByLogin(store: RepositoryStore, login: string): Promise<Owner> {
  const user = await store.findOwnerByLogin(login);
  if (!user || user.type !== 'user') throw notFound(`user ${login} does not exist`, 'user_not_found');
  return user;
}

export async function listCollaborators(store: RepositoryStore, owner: string, name: string, caller: Caller, offset: number, limit: number) {
  const access = await resolveRepository(store, owner, name, caller);
  return store.listCollaborators(access.repository.id, offset, limit);
}

export async function setCollaborator(store: RepositoryStore, owner: string, name: string, login: string, mode: string, caller: Caller): Promise<void> {
  const wanted = (mode || 'write') as CollaboratorMode;
  if (!MODES.includes(wanted)) throw invalid(`[permission]: invalid permission ${mode}`, 'invalid_permission');
  const access = await requirePermission(store, owner, name, caller, 'admin');
  const user = await userByLogin(store, login);
  if (user.id === access.repository.owner_id) throw invalid('user is the owner of the repository', 'collaborator_is_owner');
  await store.transaction(async (tx) => {
    await tx.setCollaboration(access.repository.id, user.id, wanted);
    await tx.publish({ kind: 'collaborator.added', repositoryId: access.repository.id, userId: user.id, mode: wanted, actorId: caller.userId });
  });
}

export async function removeCollaborator(store: RepositoryStore, owner: string, name: string, login: string, caller: Caller): Promise<void> {
  const access = await requirePermission(store, owner, name, caller, 'admin');
  const user = await userByLogin(store, login);
  await store.transaction(async (tx) => {
    if (await tx.removeCollaboration(access.repository.id, user.id)) {
      await tx.publish({ kind: 'collaborator.removed', repositoryId: access.repository.id, userId: user.id, actorId: caller.userId });
    }
  });
}

export async function getCollaborator(store: RepositoryStore, owner: string, name: string, login: string, caller: Caller): Promise<CollaboratorRow> {
  const access = await resolveRepository(store, owner, name, caller);
  const user = await userByLogin(store, login);
  const mode = await store.collaborationOf(access.repository.id, user.id);
  if (!mode) throw notFound(`user ${login} is not a collaborator`, 'not_collaborator');
  return { userId: user.id, login: user.login, mode, user };
}

/** Any user's permission on the repository, computed by the same function as the caller's. */
export async function userPermission(store: RepositoryStore, owner: string, name: string, login: string, caller: Caller): Promise<{ user: Owner; permission: AccessMode }> {
  const access = await resolveRepository(store, owner, name, caller);
  // Gitea: collaborators may ask about themselves; all others need repository admin.
  if (!caller.isAdmin && caller.login.toLowerCase() !== login.toLowerCase() && !atLeast(access.permission, 'admin')) {
    throw forbidden('Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own', 'repo_permission_denied');
  }
  const user = await userByLogin(store, login);
  return { user, permission: await permissionOfUser(store, access, user) };
}
