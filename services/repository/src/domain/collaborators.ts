// Collaborators: users a repository's admins grant read, write or admin access. Who may list,
// add and remove them is the gateway's route table (`repoAccess`); asking for a user's
// permission is a rule of its own (below).
import { forbidden, invalid, notFound, type Caller } from '@anvil/kit';
import type { Owner } from './owner.js';
import { atLeast, type AccessMode, type CollaboratorMode } from './permission.js';
import { permissionOfUser, type RepositoryAccess } from './repositories.js';
import type { CollaboratorRow, RepositoryStore } from './store.js';

const MODES: readonly CollaboratorMode[] = ['read', 'write', 'admin'];

async function userByLogin(store: RepositoryStore, login: string): Promise<Owner> {
  const user = await store.findOwnerByLogin(login);
  if (!user || user.type !== 'user') throw notFound(`user ${login} does not exist`, 'user_not_found');
  return user;
}

export async function listCollaborators(store: RepositoryStore, access: RepositoryAccess, offset: number, limit: number) {
  return store.listCollaborators(access.repository.id, offset, limit);
}

export async function setCollaborator(store: RepositoryStore, access: RepositoryAccess, login: string, mode: string, caller: Caller): Promise<void> {
  const wanted = (mode || 'write') as CollaboratorMode;
  if (!MODES.includes(wanted)) throw invalid(`[permission]: invalid permission ${mode}`, 'invalid_permission');
  const user = await userByLogin(store, login);
  if (user.id === access.repository.owner_id) throw invalid('user is the owner of the repository', 'collaborator_is_owner');
  await store.transaction(async (tx) => {
    await tx.setCollaboration(access.repository.id, user.id, wanted);
    await tx.publish({ kind: 'collaborator.added', repositoryId: access.repository.id, userId: user.id, mode: wanted, actorId: caller.userId });
  });
}

export async function removeCollaborator(store: RepositoryStore, access: RepositoryAccess, login: string, caller: Caller): Promise<void> {
  const user = await userByLogin(store, login);
  await store.transaction(async (tx) => {
    if (await tx.removeCollaboration(access.repository.id, user.id)) {
      await tx.publish({ kind: 'collaborator.removed', repositoryId: access.repository.id, userId: user.id, actorId: caller.userId });
    }
  });
}

export async function getCollaborator(store: RepositoryStore, access: RepositoryAccess, login: string): Promise<CollaboratorRow> {
  const user = await userByLogin(store, login);
  const mode = await store.collaborationOf(access.repository.id, user.id);
  if (!mode) throw notFound(`user ${login} is not a collaborator`, 'not_collaborator');
  return { userId: user.id, login: user.login, mode, user };
}

/** Any user's permission on the repository, computed by the same function as the caller's. */
export async function userPermission(store: RepositoryStore, access: RepositoryAccess, login: string, caller: Caller): Promise<{ user: Owner; permission: AccessMode }> {
  // Gitea: collaborators may ask about themselves; all others need repository admin (a rule
  // on who is asked about, so it stays here rather than in the route table).
  if (!caller.isAdmin && caller.login.toLowerCase() !== login.toLowerCase() && !atLeast(access.permission, 'admin')) {
    throw forbidden('Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own', 'repo_permission_denied');
  }
  const user = await userByLogin(store, login);
  return { user, permission: await permissionOfUser(store, access, user) };
}
