// anvil.repository.v1.MigrationService: decode the request, call the migrations and
// mirrors domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { migrateRepository, type MigrationDeps } from '../domain/migrations.js';
import { requestMirrorSync } from '../domain/mirrors.js';
import { ownerUserMessage, repositoryMessage } from './messages.js';
import { repositoryOf } from './requests.js';

export const MIGRATION_SERVICE_NAME = 'anvil.repository.v1.MigrationService';

export interface MigrationServiceDeps extends MigrationDeps {
  /** Wakes the local mirror scheduler after a sync was requested. */
  kickScheduler(): void;
}

const EXTRAS = ['wiki', 'labels', 'milestones', 'issues', 'pull_requests', 'releases', 'lfs'] as const;

export function migrationService(deps: MigrationServiceDeps): ServiceImplementation<repository.MigrationServiceHandlers> {
  return {
    async MigrateRepository(request, { caller }) {
      const access = await migrateRepository(deps, {
        cloneAddr: request.clone_addr, authUsername: request.auth_username, authPassword: request.auth_password, authToken: request.auth_token,
        repoOwner: request.repo_owner, repoOwnerId: Number(request.repo_owner_id), repoName: request.repo_name,
        mirror: request.mirror, mirrorInterval: request.mirror_interval, private: request.private, description: request.description,
        service: request.service, extras: EXTRAS.filter((part) => request[part]),
      }, caller);
      return { repository: repositoryMessage(access.repository), permission: access.permission, owner: ownerUserMessage(access.owner) };
    },
    async SyncMirror(request, context) {
      await requestMirrorSync(deps.store, await repositoryOf(deps.store, request, context));
      deps.kickScheduler();
      return {};
    },
  };
}

export function migrationGrpcService(deps: MigrationServiceDeps) {
  return {
    name: MIGRATION_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.MigrationService.service,
    implementation: migrationService(deps),
  };
}

