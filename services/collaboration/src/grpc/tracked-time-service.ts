// anvil.collaboration.v1.TrackedTimeService: decode the request, call the tracked-time and
// stopwatch domains with the repository the gateway resolved (signed metadata), encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type collaboration } from '@anvil/proto';
import { cancelStopwatch, listStopwatches, startStopwatch, stopStopwatch, type StopwatchDeps } from '../domain/stopwatches.js';
import { addTrackedTime, deleteTrackedTime, listTrackedTimes, listUserTrackedTimes, resetTrackedTimes, type TrackedTimeDeps } from '../domain/tracked-times.js';
import { pageOf } from './issue-service.js';
import { dateOf } from './messages.js';
import { stopwatchMessage, trackedTimeMessage } from './tracked-time-messages.js';

export const TRACKED_TIME_SERVICE_NAME = 'anvil.collaboration.v1.TrackedTimeService';

export function trackedTimeService(deps: TrackedTimeDeps & StopwatchDeps): ServiceImplementation<collaboration.TrackedTimeServiceHandlers> {
  return {
    async ListTrackedTimes(request, { caller, repository }) {
      const { items, total } = await listTrackedTimes(deps, repository, caller, {
        index: request.index, user: request.user, since: dateOf(request.since), before: dateOf(request.before), ...pageOf(request.page),
      });
      return { times: items.map(trackedTimeMessage), total };
    },
    async ListUserTrackedTimes(request, { caller }) {
      const { items, total } = await listUserTrackedTimes(deps, caller, { since: dateOf(request.since), before: dateOf(request.before), ...pageOf(request.page) });
      return { times: items.map(trackedTimeMessage), total };
    },
    async AddTrackedTime(request, { caller, repository }) {
      return trackedTimeMessage(await addTrackedTime(deps, repository, caller, request.index, {
        seconds: Number(request.time), created: dateOf(request.created_at), userName: request.user_name,
      }));
    },
    async ResetTrackedTimes(request, { caller, repository }) {
      await resetTrackedTimes(deps, repository, caller, request.index);
      return {};
    },
    async DeleteTrackedTime(request, { caller, repository }) {
      await deleteTrackedTime(deps, repository, caller, request.index, request.id);
      return {};
    },
    async StartStopwatch(request, { caller, repository }) {
      await startStopwatch(deps, repository, caller, request.index);
      return {};
    },
    async StopStopwatch(request, { caller, repository }) {
      await stopStopwatch(deps, repository, caller, request.index);
      return {};
    },
    async CancelStopwatch(request, { caller, repository }) {
      await cancelStopwatch(deps, repository, caller, request.index);
      return {};
    },
    async ListStopwatches(request, { caller }) {
      const { items, total } = await listStopwatches(deps, caller, pageOf(request));
      const now = new Date();
      return { stopwatches: items.map((s) => stopwatchMessage(s, now)), total };
    },
  };
}

export function trackedTimeGrpcService(deps: TrackedTimeDeps & StopwatchDeps) {
  return {
    name: TRACKED_TIME_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.collaboration.v1.TrackedTimeService.service,
    implementation: trackedTimeService(deps),
  };
}
