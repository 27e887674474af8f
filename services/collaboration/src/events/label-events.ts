// Label and milestone events (collaboration_events.proto LabelEvent, MilestoneEvent),
// written as outbox rows in the transaction of the change. Each carries the label or
// milestone, where it lives (repository and its owner, or organization) and the sender, so a
// webhook or notification consumer never calls back.
import { outboxEvent, type OrgScope, type OutboxEventRow, type RepositoryScope } from '@anvil/kit';
import type { collaboration as pb, identity, repository } from '@anvil/proto';
import type { Label, Milestone } from '../domain/issue-store.js';
import type { UserProfile } from '../domain/users.js';
import { labelMessage, milestoneMessage, userMessage } from '../grpc/messages.js';

/** Who changed it, and where: a repository (as the gateway resolved it) or an organization. */
export interface CatalogChangeContext {
  sender: UserProfile;
  repository?: RepositoryScope;
  org?: OrgScope;
}

export const LABEL_EVENT_TYPE = 'anvil.collaboration.v1.LabelEvent';
export const MILESTONE_EVENT_TYPE = 'anvil.collaboration.v1.MilestoneEvent';

export type LabelAction = 'created' | 'edited' | 'deleted';
export type MilestoneAction = 'created' | 'edited' | 'closed' | 'opened' | 'deleted';

const whereOf = (context: CatalogChangeContext) => ({
  repository: (context.repository?.repository ?? undefined) as unknown as repository.RepositoryInput | undefined,
  repository_owner: (context.repository?.owner ?? undefined) as unknown as identity.UserInput | undefined,
});

export function outboxRowOfLabelEvent(context: CatalogChangeContext, action: LabelAction, label: Label): OutboxEventRow {
  return outboxEvent(`collaboration.label.${action}`, LABEL_EVENT_TYPE, {
    action, label: labelMessage(label), ...whereOf(context),
    organization: (context.org?.org?.account ?? undefined) as unknown as identity.UserInput | undefined,
    sender: userMessage(context.sender),
  } satisfies pb.LabelEventInput);
}

export function outboxRowOfMilestoneEvent(context: CatalogChangeContext, action: MilestoneAction, milestone: Milestone): OutboxEventRow {
  return outboxEvent(`collaboration.milestone.${action}`, MILESTONE_EVENT_TYPE, {
    action, milestone: milestoneMessage(milestone), ...whereOf(context), sender: userMessage(context.sender),
  } satisfies pb.MilestoneEventInput);
}
