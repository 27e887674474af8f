// What identity publishes about organizations and teams (the "organizations and teams"
// part of proto/anvil/identity/v1/identity_events.proto), as outbox rows written in the
// transaction of the change. The repository service builds org/team access from them.
import { outboxEvent, type OutboxEventRow } from '@anvil/kit';
import type { identity } from '@anvil/proto';
import type { OrgEvent } from '../domain/orgs-store.js';
import { orgMessage, teamMessage } from '../grpc/org-messages.js';

export const ORG_SUBJECTS = {
  orgCreated: 'identity.org.created',
  orgUpdated: 'identity.org.updated',
  orgDeleted: 'identity.org.deleted',
  teamCreated: 'identity.team.created',
  teamUpdated: 'identity.team.updated',
  teamDeleted: 'identity.team.deleted',
  teamMemberAdded: 'identity.team.member_added',
  teamMemberRemoved: 'identity.team.member_removed',
} as const;

export const ORG_EVENT_TYPES = {
  orgCreated: 'anvil.identity.v1.OrgCreated',
  orgUpdated: 'anvil.identity.v1.OrgUpdated',
  orgDeleted: 'anvil.identity.v1.OrgDeleted',
  teamCreated: 'anvil.identity.v1.TeamCreated',
  teamUpdated: 'anvil.identity.v1.TeamUpdated',
  teamDeleted: 'anvil.identity.v1.TeamDeleted',
  teamMemberAdded: 'anvil.identity.v1.TeamMemberAdded',
  teamMemberRemoved: 'anvil.identity.v1.TeamMemberRemoved',
} as const;

export function orgOutboxRowOf(event: OrgEvent): OutboxEventRow {
  switch (event.kind) {
    case 'org.created':
      return outboxEvent(ORG_SUBJECTS.orgCreated, ORG_EVENT_TYPES.orgCreated, { org: orgMessage(event.org) } satisfies identity.OrgCreatedInput);
    case 'org.updated':
      return outboxEvent(ORG_SUBJECTS.orgUpdated, ORG_EVENT_TYPES.orgUpdated,
        { org: orgMessage(event.org), previous_name: event.previous_name ?? '' } satisfies identity.OrgUpdatedInput);
    case 'org.deleted':
      return outboxEvent(ORG_SUBJECTS.orgDeleted, ORG_EVENT_TYPES.orgDeleted, { org_id: event.org_id, name: event.name } satisfies identity.OrgDeletedInput);
    case 'team.created':
      return outboxEvent(ORG_SUBJECTS.teamCreated, ORG_EVENT_TYPES.teamCreated, { team: teamMessage(event.team) } satisfies identity.TeamCreatedInput);
    case 'team.updated':
      return outboxEvent(ORG_SUBJECTS.teamUpdated, ORG_EVENT_TYPES.teamUpdated, { team: teamMessage(event.team) } satisfies identity.TeamUpdatedInput);
    case 'team.deleted':
      return outboxEvent(ORG_SUBJECTS.teamDeleted, ORG_EVENT_TYPES.teamDeleted,
        { team_id: event.team_id, org_id: event.org_id, name: event.name } satisfies identity.TeamDeletedInput);
    case 'team.member_added':
      return outboxEvent(ORG_SUBJECTS.teamMemberAdded, ORG_EVENT_TYPES.teamMemberAdded,
        { team_id: event.team_id, org_id: event.org_id, user_id: event.user_id } satisfies identity.TeamMemberAddedInput);
    case 'team.member_removed':
      return outboxEvent(ORG_SUBJECTS.teamMemberRemoved, ORG_EVENT_TYPES.teamMemberRemoved,
        { team_id: event.team_id, org_id: event.org_id, user_id: event.user_id } satisfies identity.TeamMemberRemovedInput);
  }
}
