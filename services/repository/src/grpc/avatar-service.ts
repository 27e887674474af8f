// anvil.repository.v1.RepositoryAvatarService: decode the request, call the domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { deleteAvatar, getAvatar, setAvatar, type AvatarDeps } from '../domain/avatars.js';
import { refOf, repositoryOf } from './requests.js';

export const AVATAR_SERVICE_NAME = 'anvil.repository.v1.RepositoryAvatarService';

export function avatarService(deps: AvatarDeps): ServiceImplementation<repository.RepositoryAvatarServiceHandlers> {
  return {
    // The gateway's route table asked for admin access (repoAccess) before either call.
    async SetAvatar(request, context) {
      await setAvatar(deps, await repositoryOf(deps.store, refOf(request), context), request.image);
      return {};
    },
    async DeleteAvatar(request, context) {
      await deleteAvatar(deps, await repositoryOf(deps.store, request, context));
      return {};
    },
    async GetAvatar(request) {
      const found = await getAvatar(deps, request.name);
      return { content_type: found.contentType, data: Buffer.from(found.data) };
    },
  };
}

export function avatarGrpcService(deps: AvatarDeps) {
  return {
    name: AVATAR_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.RepositoryAvatarService.service,
    implementation: avatarService(deps),
  };
}
