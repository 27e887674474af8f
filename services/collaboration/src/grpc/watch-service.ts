// anvil.collaboration.v1.WatchService: decode the request, call the watch domain with the
// repository the gateway resolved (signed metadata), encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration } from '@anvil/proto';
import { getWatch, listWatchers, setWatch, watchedRepositories, type WatchDeps } from '../domain/watches.js';
import { pageOf } from './issue-service.js';
import { timestamp, userMessage } from './messages.js';

export const WATCH_SERVICE_NAME = 'anvil.collaboration.v1.WatchService';

export function watchService(deps: WatchDeps): ServiceImplementation<collaboration.WatchServiceHandlers> {
  return {
    async GetWatch(_request, { caller, repository }) {
      const watch = await getWatch(deps, repository, caller);
      return { watching: true, created_at: timestamp(watch.createdAt) };
    },
    async SetWatch(request, { caller, repository }) {
      const watch = await setWatch(deps, repository, caller, request.watch);
      return { watching: Boolean(watch), created_at: watch ? timestamp(watch.createdAt) : undefined };
    },
    async ListWatchers(request, { repository }) {
      const { items, total } = await listWatchers(deps, repository, pageOf(request));
      return { users: items.map(userMessage), total };
    },
    async ListWatchedRepositories(request) {
      return { repository_ids: await watchedRepositories(deps, Number(request.user_id)) };
    },
  };
}

export function watchGrpcService(deps: WatchDeps) {
  return {
    name: WATCH_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.collaboration.v1.WatchService.service,
    implementation: watchService(deps),
  };
}
