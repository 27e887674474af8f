// anvil.repository.v1.GitObjectService: decode the request, call the git-objects domain,
// encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { getBlob, getTree, listRefs, type GitObjectDeps } from '../domain/git-objects.js';
import { repositoryRead, type ReadAccessDeps } from './read-access.js';
import { refOf } from './requests.js';

export const GIT_OBJECT_SERVICE_NAME = 'anvil.repository.v1.GitObjectService';

type ReadDeps = GitObjectDeps & ReadAccessDeps;

export function gitObjectService(deps: ReadDeps): ServiceImplementation<repository.GitObjectServiceHandlers> {
  return {
    async GetBlob(request, context) {
      const blob = await repositoryRead(deps, refOf(request), context, (repo) => getBlob(deps, repo, request.sha, request.max_content_size));
      return { sha: blob.sha, size: blob.size, has_content: blob.content !== undefined, content: blob.content ?? Buffer.alloc(0), repository: blob.repository };
    },
    async GetTree(request, context) {
      const tree = await repositoryRead(deps, refOf(request), context, (repo) => getTree(deps, repo, {
        sha: request.sha, recursive: request.recursive, page: request.page, perPage: request.per_page, maxPerPage: Math.max(request.max_per_page, 1),
      }));
      return { sha: tree.sha, entries: tree.entries, truncated: tree.truncated, page: tree.page, total_count: tree.totalCount, repository: tree.repository };
    },
    async ListRefs(request, context) {
      const { refs, repository: name } = await repositoryRead(deps, refOf(request), context, (repo) => listRefs(deps, repo, request.prefix));
      return { refs: refs.map((r) => ({ ref: r.ref, object_sha: r.sha, object_type: r.type })), repository: name };
    },
  };
}

export function gitObjectGrpcService(deps: ReadDeps) {
  return {
    name: GIT_OBJECT_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.GitObjectService.service,
    implementation: gitObjectService(deps),
  };
}
