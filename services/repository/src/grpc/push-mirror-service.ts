// anvil.repository.v1.PushMirrorService: decode the request, call the push-mirror domain,
// encode the reply.
import type { CallContext, ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { createPushMirror, deletePushMirror, getPushMirror, listPushMirrors, syncPushMirrors, type PushMirrorDeps, type PushMirrorRecord } from '../domain/push-mirrors.js';
import { formatGoDuration } from '../domain/remote-address.js';
import { pageOf, refOf, repositoryOf } from './requests.js';

function pushMirrorMessage(mirror: PushMirrorRecord, repoName: string): repository.PushMirrorInput {
  return {
    repo_name: repoName, remote_name: mirror.remoteName, remote_address: mirror.remoteAddress, created: mirror.createdAt.toISOString(),
    last_update: mirror.lastUpdate?.toISOString() ?? '', last_error: mirror.lastError, interval: formatGoDuration(mirror.intervalMs), sync_on_commit: mirror.syncOnCommit,
  };
}

export function pushMirrorService(deps: PushMirrorDeps): ServiceImplementation<repository.PushMirrorServiceHandlers> {
  const repo = (ref: repository.RepositoryRef, context: CallContext) => repositoryOf(deps.repositories, ref, context);
  return {
    async ListPushMirrors(request, context) {
      const { access, items, total } = await listPushMirrors(deps, await repo(refOf(request), context), pageOf(request.page));
      return { mirrors: items.map((m) => pushMirrorMessage(m, access.repository.name)), total };
    },
    async CreatePushMirror(request, context) {
      const { access, mirror } = await createPushMirror(deps, await repo(refOf(request), context), {
        remoteAddress: request.remote_address, remoteUsername: request.remote_username, remotePassword: request.remote_password,
        interval: request.interval, syncOnCommit: request.sync_on_commit,
      });
      return pushMirrorMessage(mirror, access.repository.name);
    },
    async GetPushMirror(request, context) {
      const { access, mirror } = await getPushMirror(deps, await repo(refOf(request), context), request.name);
      return pushMirrorMessage(mirror, access.repository.name);
    },
    async DeletePushMirror(request, context) {
      await deletePushMirror(deps, await repo(refOf(request), context), request.name);
      return {};
    },
    async SyncPushMirrors(request, context) {
      await syncPushMirrors(deps, await repo(request, context));
      return {};
    },
  };
}

export function pushMirrorGrpcService(deps: PushMirrorDeps) {
  return {
    name: 'anvil.repository.v1.PushMirrorService',
    definition: loadAnvilGrpc().anvil.repository.v1.PushMirrorService.service,
    implementation: pushMirrorService(deps),
  };
}
