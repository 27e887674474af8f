// Repository watch events (proto/anvil/collaboration/v1/watches.proto RepositoryWatchChanged),
// written as outbox rows with the change: the repository service counts watchers from them.
import { outboxEvent, type OutboxEventRow } from '@anvil/kit';
import type { collaboration as pb } from '@anvil/proto';

export const WATCH_EVENT_TYPE = 'anvil.collaboration.v1.RepositoryWatchChanged';

/** `collaboration.repo_watch.started` or `collaboration.repo_watch.stopped`. */
export const watchSubject = (watching: boolean) => `collaboration.repo_watch.${watching ? 'started' : 'stopped'}`;

/** `countChange`: set only where the count does not move by one with the watch (watches.proto). */
export function outboxRowOfWatchChange(repositoryId: number, userId: number, watching: boolean, countChange?: number): OutboxEventRow {
  return outboxEvent(watchSubject(watching), WATCH_EVENT_TYPE, {
    repository_id: repositoryId, user_id: userId, watching, ...(countChange === undefined ? {} : { count_change: countChange }),
  } satisfies pb.RepositoryWatchChangedInput);
}
