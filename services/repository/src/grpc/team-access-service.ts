// anvil.repository.v1.TeamAccessService: a team's repositories. Decode, call the domain, encode.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import type { RepositoryAccess, RepositoryDeps } from '../domain/repositories.js';
import type { TeamScope } from '../domain/store.js';
import { addTeamRepository, getTeamRepository, listTeamRepositories, removeTeamRepository } from '../domain/team-repositories.js';
import { ownerUserMessage, repositoryMessage } from './messages.js';
import { pageOf } from './requests.js';

export const TEAM_ACCESS_SERVICE_NAME = 'anvil.repository.v1.TeamAccessService';

function scopeOf(team: repository.TeamScope | null | undefined): TeamScope {
  return { teamId: Number(team?.team_id ?? 0), orgId: Number(team?.org_id ?? 0), includesAllRepositories: team?.includes_all_repositories ?? false };
}

function accessReply(access: RepositoryAccess): repository.RepositoryAccessInput {
  return { repository: repositoryMessage(access.repository), permission: access.permission, owner: ownerUserMessage(access.owner) };
}

export function teamAccessService(deps: RepositoryDeps): ServiceImplementation<repository.TeamAccessServiceHandlers> {
  const { store } = deps;
  return {
    async ListTeamRepositories(request, { caller }) {
      const { offset, limit } = pageOf(request.page);
      const { items, total } = await listTeamRepositories(store, scopeOf(request.team), caller, offset, limit);
      return { repositories: items.map(accessReply), total };
    },
    async GetTeamRepository(request, { caller }) {
      return accessReply(await getTeamRepository(store, scopeOf(request.team), request.name, caller));
    },
    async AddTeamRepository(request, { caller }) {
      await addTeamRepository(store, scopeOf(request.team), request.name, caller);
      return {};
    },
    async RemoveTeamRepository(request, { caller }) {
      await removeTeamRepository(store, scopeOf(request.team), request.name, caller);
      return {};
    },
  };
}

export function teamAccessGrpcService(deps: RepositoryDeps) {
  return {
    name: TEAM_ACCESS_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.TeamAccessService.service,
    implementation: teamAccessService(deps),
  };
}
