// anvil.repository.v1.CommitStatusService: decode the request, call the commit-status
// domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { combinedStatus, createCommitStatus, listCommitStatuses, type CommitStatusDeps, type CommitStatusView, type RepositoryName } from '../domain/commit-statuses.js';
import { ownerUserMessage, repositoryMessage, timestamp } from './messages.js';
import { pageOf, refOf, repositoryOf } from './requests.js';

export const COMMIT_STATUS_SERVICE_NAME = 'anvil.repository.v1.CommitStatusService';

function statusMessage(status: CommitStatusView, repo: RepositoryName): repository.CommitStatusInput {
  return {
    index: status.index, sha: status.sha, state: status.state, target_url: status.targetUrl, description: status.description,
    context: status.context, creator: status.creator ? ownerUserMessage(status.creator) : undefined,
    created_at: timestamp(status.created_at), updated_at: timestamp(status.updated_at), repository: repo,
  };
}

export function commitStatusService(deps: CommitStatusDeps): ServiceImplementation<repository.CommitStatusServiceHandlers> {
  return {
    async CreateCommitStatus(request, context) {
      const { status, repository: repo } = await createCommitStatus(deps, await repositoryOf(deps.store, refOf(request), context), {
        sha: request.sha, state: request.state, targetUrl: request.target_url, description: request.description, context: request.context,
      }, context.caller);
      return statusMessage(status, repo);
    },
    async ListCommitStatuses(request, context) {
      const { items, total, repository: repo } = await listCommitStatuses(deps, await repositoryOf(deps.store, refOf(request), context), {
        revision: request.sha, byRef: request.by_ref, sort: request.sort, state: request.state, ...pageOf(request.page),
      });
      return { statuses: items.map((s) => statusMessage(s, repo)), total, repository: repo };
    },
    async GetCombinedStatus(request, context) {
      const combined = await combinedStatus(deps, await repositoryOf(deps.store, refOf(request), context), request.revision, pageOf(request.page));
      const { access } = combined;
      const repo = { owner: access.owner.login, name: access.repository.name };
      return {
        state: combined.state, sha: combined.sha, total: combined.total,
        statuses: combined.statuses.map((s) => statusMessage(s, repo)),
        repository: { repository: repositoryMessage(access.repository), permission: access.permission, owner: ownerUserMessage(access.owner) },
      };
    },
  };
}

export function commitStatusGrpcService(deps: CommitStatusDeps) {
  return {
    name: COMMIT_STATUS_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.CommitStatusService.service,
    implementation: commitStatusService(deps),
  };
}
