// anvil.repository.v1.UnadoptedService: local adoption for site admins.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { adoptRepository, deleteUnadopted, listUnadopted, type UnadoptedDeps } from '../domain/unadopted.js';
import { ownerUserMessage, repositoryMessage } from './messages.js';

export const UNADOPTED_SERVICE_NAME = 'anvil.repository.v1.UnadoptedService';

export function unadoptedService(deps: UnadoptedDeps): ServiceImplementation<repository.UnadoptedServiceHandlers> {
  return {
    async ListUnadopted(request, { caller }) {
      const limit = Math.min(Math.max(request.page?.limit || 30, 1), 1000);
      const offset = (Math.max(request.page?.page || 1, 1) - 1) * limit;
      return listUnadopted(deps, request.pattern, offset, limit, caller);
    },
    async AdoptRepository(request, { caller }) {
      const access = await adoptRepository(deps, request.owner, request.name, caller);
      return { repository: repositoryMessage(access.repository), permission: access.permission, owner: ownerUserMessage(access.owner) };
    },
    async DeleteUnadopted(request, { caller }) {
      await deleteUnadopted(deps, request.owner, request.name, caller);
      return {};
    },
  };
}

export function unadoptedGrpcService(deps: UnadoptedDeps) {
  return {
    name: UNADOPTED_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.UnadoptedService.service,
    implementation: unadoptedService(deps),
  };
}
