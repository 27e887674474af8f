// anvil.repository.v1.GitObjectService: decode the request, call the git-objects domain,
// encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { getBlob, getTree, listRefs, type GitObjectDeps } from '../domain/git-objects.js';
import { refOf } from './requests.js';

export const GIT_OBJECT_SERVICE_NAME = 'anvil.repository.v1.GitObjectService';

export function gitObjectService(deps: GitObjectDeps): ServiceImplementation<repository.GitObjectServiceHandlers> {
  return {
    async GetBlob(request, { caller }) {
      const ref = refOf(request);
      const blob = await getBlob(deps, ref.owner, ref.name, request.sha, request.max_content_size, caller);
      return { sha: blob.sha, size: blob.size, has_content: blob.content !== undefined, content: blob.content ?? Buffer.alloc(0), repository: blob.repository };
    },
    async GetTree(request, { caller }) {
      const ref = refOf(request);
      const tree = await getTree(deps, ref.owner, ref.name, {
        sha: request.sha, recursive: request.recursive, page: request.page, perPage: request.per_page, maxPerPage: Math.max(request.max_per_page, 1),
      }, caller);
      return { sha: tree.sha, entries: tree.entries, truncated: tree.truncated, page: tree.page, total_count: tree.totalCount, repository: tree.repository };
    },
    async ListRefs(request, { caller }) {
      const ref = refOf(request);
      const { refs, repository: repo } = await listRefs(deps, ref.owner, ref.name, request.prefix, caller);
      return { refs: refs.map((r) => ({ ref: r.ref, object_sha: r.sha, object_type: r.type })), repository: repo };
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
