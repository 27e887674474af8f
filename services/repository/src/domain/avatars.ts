// Repository avatars with Gitea's rules (services/repository/avatar.go, modules/avatar):
// repository admins (the gateway's route table asks) upload or remove one; the image must be a PNG, JPEG, GIF or WebP of at
// most [picture] AVATAR_MAX_FILE_SIZE bytes and AVATAR_MAX_WIDTH × AVATAR_MAX_HEIGHT pixels. Its name is Gitea's HashAvatar (the SHA-256 of the
// repository id, "-" and the bytes), so the same image uploaded again changes nothing and
// the name never comes from the request. Gitea shrinks a large image to 512 px; Anvil keeps
// it as uploaded (README "Known gaps").
import { createHash } from 'node:crypto';
import { invalid, notFound } from '@anvil/kit';
import { imageFacts } from './avatar-image.js';
import type { RepositoryAccess } from './repositories.js';
import type { RepositoryStore } from './store.js';

/** [picture] AVATAR_MAX_FILE_SIZE, AVATAR_MAX_WIDTH and AVATAR_MAX_HEIGHT (Gitea's defaults here). */
export interface AvatarLimits {
  AVATAR_MAX_FILE_SIZE: number;
  AVATAR_MAX_WIDTH: number;
  AVATAR_MAX_HEIGHT: number;
}

export const GITEA_AVATAR_LIMITS: AvatarLimits = { AVATAR_MAX_FILE_SIZE: 1024 * 1024, AVATAR_MAX_WIDTH: 4096, AVATAR_MAX_HEIGHT: 4096 };

export interface StoredAvatar {
  contentType: string;
  data: Uint8Array;
}

export interface AvatarStore {
  /** Stores the image under `name` as the repository's avatar, replacing any other, in one transaction. */
  save(repositoryId: number, name: string, image: StoredAvatar): Promise<void>;
  remove(repositoryId: number): Promise<void>;
  find(name: string): Promise<StoredAvatar | undefined>;
}

export interface AvatarDeps {
  store: RepositoryStore;
  avatars: AvatarStore;
  limits: AvatarLimits;
}

/** Gitea's HashAvatar. */
export const avatarName = (repositoryId: number, data: Uint8Array) =>
  createHash('sha256').update(`${repositoryId}-`).update(data).digest('hex');

/** The image's content type, or the 422 Gitea's checks would refuse it with. */
export function checkAvatarImage(data: Uint8Array, limits: AvatarLimits = GITEA_AVATAR_LIMITS): string {
  const { AVATAR_MAX_FILE_SIZE: maxSize, AVATAR_MAX_WIDTH: maxWidth, AVATAR_MAX_HEIGHT: maxHeight } = limits;
  if (data.length > maxSize) throw invalid(`image is too large: ${data.length} bytes > ${maxSize}`, 'avatar_too_large');
  const facts = imageFacts(data);
  if (!facts) throw invalid('image: unknown format (PNG, JPEG, GIF or WebP expected)', 'avatar_not_an_image');
  if (facts.width > maxWidth) throw invalid(`image width is too large: ${facts.width} > ${maxWidth}`, 'avatar_too_wide');
  if (facts.height > maxHeight) throw invalid(`image height is too large: ${facts.height} > ${maxHeight}`, 'avatar_too_high');
  return facts.contentType;
}

export async function setAvatar(deps: AvatarDeps, { repository }: RepositoryAccess, data: Uint8Array): Promise<void> {
  const contentType = checkAvatarImage(data, deps.limits);
  const avatar = avatarName(repository.id, data);
  if (repository.avatar === avatar) return;
  await deps.avatars.save(repository.id, avatar, { contentType, data });
}

export async function deleteAvatar(deps: AvatarDeps, { repository }: RepositoryAccess): Promise<void> {
  if (repository.avatar) await deps.avatars.remove(repository.id);
}

export async function getAvatar(deps: AvatarDeps, name: string): Promise<StoredAvatar> {
  const found = /^[0-9a-f]{64}$/.test(name) ? await deps.avatars.find(name) : undefined;
  if (!found) throw notFound('The target couldn\'t be found.', 'avatar_not_found');
  return found;
}
