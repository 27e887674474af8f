// Pull request events (proto/anvil/collaboration/v1/pulls.proto PullRequestEvent), written as
// outbox rows in the transaction of the change they announce, with what Gitea's
// pull_request webhook payload holds, so consumers never call back.
import { outboxEvent, type OutboxEventRow } from '@anvil/kit';
import type { collaboration as pb, identity, repository } from '@anvil/proto';
import type { ChangeContext } from '../domain/issue-store.js';
import type { Pull, PullAction } from '../domain/pull-store.js';
import { pullMessage } from '../grpc/pull-messages.js';
import { userMessage } from '../grpc/messages.js';
import { payloadRepositoryFacts } from './repository-facts.js';
import type { UserProfile } from '../domain/users.js';

/**
 * What a review event adds: the review (type and body) or the reviewer asked for; and for a
 * pull from a fork, the fork as the read model knows it (store/fork-repositories.ts).
 */
export interface PullEventExtras {
  review?: { type: string; content: string };
  requestedReviewer?: UserProfile;
  /** A team's review request: its members when asked. */
  requestedTeamMemberIds?: number[];
  headRepository?: pb.HeadRepositoryInput;
}

export const PULL_EVENT_TYPE = 'anvil.collaboration.v1.PullRequestEvent';

/** `collaboration.pull_request.<action>`, e.g. collaboration.pull_request.opened. */
export const pullSubject = (action: PullAction) => `collaboration.pull_request.${action}`;

export function outboxRowOfPullEvent(context: ChangeContext, pull: Pull, action: PullAction, extras: PullEventExtras = {}): OutboxEventRow {
  const { scope } = context.repository;
  return outboxEvent(pullSubject(action), PULL_EVENT_TYPE, {
    action,
    pull_request: pullMessage(pull),
    repository: scope.repository as unknown as repository.RepositoryInput,
    repository_owner: (scope.owner ?? undefined) as unknown as identity.UserInput | undefined,
    sender: userMessage(context.sender),
    ...payloadRepositoryFacts(scope),
    review: extras.review,
    requested_reviewer: extras.requestedReviewer ? userMessage(extras.requestedReviewer) : undefined,
    head_repository: extras.headRepository,
    requested_team_member_ids: extras.requestedTeamMemberIds ?? [],
  } satisfies pb.PullRequestEventInput);
}
