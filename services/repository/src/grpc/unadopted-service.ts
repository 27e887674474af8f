// anvil.repository.v1.UnadoptedService: local adoption for site admins.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { adoptRepository, deleteUnadopted, listUnadopted, type UnadoptedDeps } from '../domain/unadopted.js';
import { ownerUserMessage, repositoryMessage } from './messages.js';
import { pageOf } from './requests.js';

export const UNADOPTED_SERVICE_NAME = 'anvil.repository.v1.UnadoptedService';

export function unadoptedService(deps: UnadoptedDeps): ServiceImplementation<repository.UnadoptedServiceHandlers> {
  return {
    async ListUnadopted(request, { caller }) {
      const { offset, limit } = pageOf(request.page);
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
