// Owners (users and organizations) as identity last described them. Repository keeps this
// read model so it can resolve `/repos/{owner}/...` and check owner rules without calling
// identity; identity stays the source of truth and feeds it through its user events.
import { invalid, notFound } from '@anvil/kit';

export type OwnerType = 'user' | 'organization';
export type OwnerVisibility = 'public' | 'limited' | 'private';

export interface Owner {
  /** Identity's user id; users and organizations share one id space, as in Gitea. */
  id: number;
  /** The login as written; lookups ignore case. */
  login: string;
  type: OwnerType;
  isAdmin: boolean;
  restricted: boolean;
  visibility: OwnerVisibility;
  fullName: string;
  email: string;
  /** Identity's per-user repository limit; -1 = the site's [repository] MAX_CREATION_LIMIT. */
  maxRepoCreation: number;
  /**
   * identity's User message as last received, kept opaque: the gateway presents it as the
   * owner of a repository. Null for rows written before profiles were kept.
   */
  profile?: Record<string, unknown> | null;
}

/** How the domain reads owners; src/store/owners.ts implements it over Prisma. */
export interface OwnerReader {
  findById(id: number): Promise<Owner | undefined>;
  /** `login` is matched without regard to case. */
  findByLogin(login: string): Promise<Owner | undefined>;
}

/** Gitea's IsUserVisibleToViewer: limited owners need a signed-in viewer, private ones the owner or an admin. */
export function isOwnerVisibleTo(owner: Owner, viewer: { userId: number; isAdmin: boolean }): boolean {
  if (owner.visibility === 'public') return true;
  if (viewer.userId <= 0) return false;
  return owner.visibility === 'limited' || viewer.isAdmin || viewer.userId === owner.id;
}

export type OwnerKey = { id: number } | { login: string };

export async function getOwner(owners: OwnerReader, key: OwnerKey | undefined): Promise<Owner> {
  if (!key) throw invalid('an owner id or login is required');
  const owner = 'id' in key ? await owners.findById(key.id) : await owners.findByLogin(key.login);
  if (!owner) {
    const described = 'id' in key ? `id ${key.id}` : `login ${JSON.stringify(key.login)}`;
    throw notFound(`owner with ${described} does not exist`, 'owner_not_found');
  }
  return owner;
}
