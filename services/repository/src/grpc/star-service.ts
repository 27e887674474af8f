// anvil.repository.v1.StarService: decode the request, call the domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { checkStar, listStargazers, setStar, type StarDeps } from '../domain/stars.js';
import { ownerUserMessage } from './messages.js';
import { pageOf, refOf, repositoryOf } from './requests.js';

export const STAR_SERVICE_NAME = 'anvil.repository.v1.StarService';

export function starService(deps: StarDeps): ServiceImplementation<repository.StarServiceHandlers> {
  return {
    async SetStar(request, { caller }) {
      const ref = refOf(request);
      await setStar(deps, ref.owner, ref.name, caller, request.star);
      return {};
    },
    async GetStar(request, { caller }) {
      await checkStar(deps, request.owner, request.name, caller);
      return {};
    },
    async ListStargazers(request, context) {
      const { offset, limit } = pageOf(request.page);
      const { users, total } = await listStargazers(deps, await repositoryOf(deps.store, refOf(request), context), offset, limit);
      return { users: users.map(ownerUserMessage), total };
    },
    async ListStarredRepositories(request) {
      return { repository_ids: await deps.stars.starredRepositoryIds(Number(request.user_id)) };
    },
  };
}

export function starGrpcService(deps: StarDeps) {
  return {
    name: STAR_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.StarService.service,
    implementation: starService(deps),
  };
}
