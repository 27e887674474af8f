// anvil.repository.v1.PushMirrorService: decode the request, call the push-mirror domain,
// encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import { createPushMirror, deletePushMirror, getPushMirror, listPushMirrors, syncPushMirrors, type PushMirrorDeps, type PushMirrorRecord } from '../domain/push-mirrors.js';
import { formatGoDuration } from '../domain/remote-address.js';
import { pageOf, refOf } from './requests.js';

function pushMirrorMessage(mirror: PushMirrorRecord, repoName: string): repository.PushMirrorInput {
  return {
    repo_name: repoName, remote_name: mirror.remoteName, remote_address: mirror.remoteAddress, created: mirror.createdAt.toISOString(),
    last_update: mirror.lastUpdate?.toISOString() ?? '', last_error: mirror.lastError, interval: formatGoDuration(mirror.intervalMs), sync_on_commit: mirror.syncOnCommit,
  };
}

export function pushMirrorService(deps: PushMirrorDeps): ServiceImplementation<repository.PushMirrorServiceHandlers> {
  return {
    async ListPushMirrors(request, { caller }) {
      const ref = refOf(request);
      const { access, items, total } = await listPushMirrors(deps, ref.owner, ref.name, pageOf(request.page), caller);
      return { mirrors: items.map((m) => pushMirrorMessage(m, access.repository.name)), total };
    },
    async CreatePushMirror(request, { caller }) {
      const ref = refOf(request);
      const { access, mirror } = await createPushMirror(deps, ref.owner, ref.name, {
        remoteAddress: request.remote_address, remoteUsername: request.remote_username, remotePassword: request.remote_password,
        interval: request.interval, syncOnCommit: request.sync_on_commit,
      }, caller);
      return pushMirrorMessage(mirror, access.repository.name);
    },
    async GetPushMirror(request, { caller }) {
      const ref = refOf(request);
      const { access, mirror } = await getPushMirror(deps, ref.owner, ref.name, request.name, caller);
      return pushMirrorMessage(mirror, access.repository.name);
    },
    async DeletePushMirror(request, { caller }) {
      const ref = refOf(request);
      await deletePushMirror(deps, ref.owner, ref.name, request.name, caller);
      return {};
    },
    async SyncPushMirrors(request, { caller }) {
      await syncPushMirrors(deps, request.owner, request.name, caller);
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
