// anvil.repository.v1.GitObjectService: decode the request, call the git-objects domain,
// encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { getBlob, getTree, listRefs, type GitObjectDeps } from '../domain/git-objects.js';
import { refOf, repositoryOf } from './requests.js';

export const GIT_OBJECT_SERVICE_NAME = 'anvil.repository.v1.GitObjectService';

export function gitObjectService(deps: GitObjectDeps): ServiceImplementation<repository.GitObjectServiceHandlers> {
  return {
    async GetBlob(request, context) {
      const repo = await repositoryOf(deps.store, refOf(request), context);
      const blob = await getBlob(deps, repo, request.sha, request.max_content_size);
      return { sha: blob.sha, size: blob.size, has_content: blob.content !== undefined, content: blob.content ?? Buffer.alloc(0), repository: blob.repository };
    },
    async GetTree(request, context) {
      const repo = await repositoryOf(deps.store, refOf(request), context);
      const tree = await getTree(deps, repo, {
        sha: request.sha, recursive: request.recursive, page: request.page, perPage: request.per_page, maxPerPage: Math.max(request.max_per_page, 1),
      });
      return { sha: tree.sha, entries: tree.entries, truncated: tree.truncated, page: tree.page, total_count: tree.totalCount, repository: tree.repository };
    },
    async ListRefs(request, context) {
      const repo = await repositoryOf(deps.store, refOf(request), context);
      const { refs, repository: name } = await listRefs(deps, repo, request.prefix);
      return { refs: refs.map((r) => ({ ref: r.ref, object_sha: r.sha, object_type: r.type })), repository: name };
    },
  };
}

export function gitObjectGrpcService(deps: GitObjectDeps) {
  return {
    name: GIT_OBJECT_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.GitObjectService.service,
    implementation: gitObjectService(deps),
  };
}
