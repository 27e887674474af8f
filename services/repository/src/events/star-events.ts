// Star events (proto/anvil/repository/v1/repository_events.proto StarChanged), written as
// outbox rows in the transaction that adds or removes the star row: identity counts each
// user's stars from them (Gitea's user.num_stars).
import { outboxEvent, type OutboxEventRow } from '@anvil/kit';
import type { repository as pb } from '@anvil/proto';

export const STAR_EVENT_TYPE = 'anvil.repository.v1.StarChanged';

/** `repository.star.added` or `repository.star.removed`. */
export const starSubject = (star: boolean) => `repository.star.${star ? 'added' : 'removed'}`;

export function outboxRowOfStarChange(repositoryId: number, userId: number, star: boolean): OutboxEventRow {
  return outboxEvent(starSubject(star), STAR_EVENT_TYPE, {
    repository_id: repositoryId, user_id: userId, star,
  } satisfies pb.StarChangedInput);
}
