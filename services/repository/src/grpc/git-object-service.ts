// anvil.repository.v1.GitObjectService: decode the request, call the git-objects domain,
// encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { getBlob, getTree, listRefs, type GitObjectDeps } from '../domain/git-objects.js';
import { readWithScope, type ReadAccessDeps } from './read-access.js';
import { refOf } from './requests.js';

export const GIT_OBJECT_SERVICE_NAME = 'anvil.repository.v1.GitObjectService';

type ReadDeps = GitObjectDeps & ReadAccessDeps;

export function gitObjectService(deps: ReadDeps): ServiceImplementation<repository.GitObjectServiceHandlers> {
  return {
    async GetBlob(request, { caller, repository: scope }) {
      const ref = refOf(request);
      const blob = await readWithScope(deps, scope, ref, caller, (known) => getBlob(deps, ref.owner, ref.name, request.sha, request.max_content_size, caller, known));
      return { sha: blob.sha, size: blob.size, has_content: blob.content !== undefined, content: blob.content ?? Buffer.alloc(0), repository: blob.repository };
    },
    async GetTree(request, { caller, repository: scope }) {
      const ref = refOf(request);
      const tree = await readWithScope(deps, scope, ref, caller, (known) => getTree(deps, ref.owner, ref.name, {
        sha: request.sha, recursive: request.recursive, page: request.page, perPage: request.per_page, maxPerPage: Math.max(request.max_per_page, 1),
      }, caller, known));
      return { sha: tree.sha, entries: tree.entries, truncated: tree.truncated, page: tree.page, total_count: tree.totalCount, repository: tree.repository };
    },
    async ListRefs(request, { caller, repository: scope }) {
      const ref = refOf(request);
      const { refs, repository: repo } = await readWithScope(deps, scope, ref, caller, (known) => listRefs(deps, ref.owner, ref.name, request.prefix, caller, known));
      return { refs: refs.map((r) => ({ ref: r.ref, object_sha: r.sha, object_type: r.type })), repository: repo };
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
