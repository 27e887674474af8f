// anvil.repository.v1.RepositoryService: decode the request, call the domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { getOwner, type Owner, type OwnerKey } from '../domain/owner.js';
import type { RepositoryDb } from '../store/db.js';
import { ownerReader } from '../store/owners.js';

export const REPOSITORY_SERVICE_NAME = 'anvil.repository.v1.RepositoryService';

function ownerKeyOf(request: repository.GetOwnerRequest): OwnerKey | undefined {
  if (request.key === 'id') return { id: Number(request.id) };
  if (request.key === 'login') return { login: request.login ?? '' };
  return undefined;
}

function ownerReply(owner: Owner): repository.OwnerInput {
  return { id: owner.id, login: owner.login, type: owner.type, is_admin: owner.isAdmin };
}

export function repositoryService(db: RepositoryDb): ServiceImplementation<repository.RepositoryServiceHandlers> {
  const owners = ownerReader(db);
  return {
    async GetOwner(request) {
      return ownerReply(await getOwner(owners, ownerKeyOf(request)));
    },
  };
}

export function repositoryGrpcService(db: RepositoryDb) {
  return {
    name: REPOSITORY_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.RepositoryService.service,
    implementation: repositoryService(db),
  };
}
