// Consumes identity's organization and team events (identity.org.*, identity.team.*) into the
// read model that org and team access is computed from. One durable consumer over all of
// identity's subjects, so an organization's events and its teams' events are applied in the
// order identity wrote them; user events are left to the user consumer.
import type { ConsumerOptions, Logger, ReceivedEvent } from '@anvil/kit';
import type { identity } from '@anvil/proto';
import { applyOrgChange, type OrgChange, type TeamState } from '../domain/org-read-model.js';
import type { RepositoryStorage } from '../git/storage.js';
import type { RepositoryTx } from '../store/db.js';
import { orgWriter } from '../store/org-read-model.js';
import { ownerReader } from '../store/owners.js';
import { removeOwnerRepositories, renameOwnerRepositories } from '../store/repositories.js';
import { ownerFromUser } from './identity-user-consumer.js';

export const IDENTITY_ORG_CONSUMER = 'repository-identity-org';

function teamOf(team: identity.Team | null | undefined): TeamState | undefined {
  if (!team || !team.id || !team.org_id) return undefined;
  return {
    id: Number(team.id),
    orgId: Number(team.org_id),
    name: team.name,
    permission: team.permission || 'none',
    unitsMap: { ...(team.units_map ?? {}) },
    includesAllRepositories: team.includes_all_repositories,
    canCreateOrgRepo: team.can_create_org_repo,
  };
}

type Membership = identity.TeamMemberAdded | identity.TeamMemberRemoved;

/** The read-model change an event asks for; undefined for subjects this consumer does not use. */
export function orgChangeOf(event: ReceivedEvent): OrgChange | undefined | 'malformed' {
  switch (event.subject) {
    case 'identity.org.created':
    case 'identity.org.updated': {
      const account = (event.payload as identity.OrgCreated | identity.OrgUpdated | undefined)?.org?.account;
      const org = ownerFromUser(account);
      if (!org) return 'malformed';
      return { kind: event.subject === 'identity.org.created' ? 'org.created' : 'org.updated', org: { ...org, type: 'organization' } };
    }
    case 'identity.org.deleted': {
      const orgId = Number((event.payload as identity.OrgDeleted | undefined)?.org_id);
      return orgId ? { kind: 'org.deleted', orgId } : 'malformed';
    }
    case 'identity.team.created':
    case 'identity.team.updated': {
      const team = teamOf((event.payload as identity.TeamCreated | identity.TeamUpdated | undefined)?.team);
      return team ? { kind: 'team.saved', team } : 'malformed';
    }
    case 'identity.team.deleted': {
      const teamId = Number((event.payload as identity.TeamDeleted | undefined)?.team_id);
      return teamId ? { kind: 'team.deleted', teamId } : 'malformed';
    }
    case 'identity.team.member_added':
    case 'identity.team.member_removed': {
      const m = event.payload as Membership | undefined;
      const [teamId, orgId, userId] = [Number(m?.team_id), Number(m?.org_id), Number(m?.user_id)];
      if (!teamId || !orgId || !userId) return 'malformed';
      return { kind: event.subject === 'identity.team.member_added' ? 'member.added' : 'member.removed', teamId, orgId, userId };
    }
    default:
      return undefined;
  }
}

/**
 * @param storage where git data lives: a renamed organization's repositories move with its
 *   name, a deleted one's go. Omitted in tests of the read model alone.
 */
export function identityOrgConsumer(log: Logger, storage?: RepositoryStorage): Omit<ConsumerOptions<RepositoryTx>, 'db' | 'bus' | 'log'> {
  return {
    durable: IDENTITY_ORG_CONSUMER,
    filter: 'identity.>',
    async handle(event, tx) {
      const change = orgChangeOf(event);
      if (change === undefined) return;
      if (change === 'malformed') {
        // Retrying cannot fix a payload; skip it rather than block on it forever.
        log.warn({ id: event.id, subject: event.subject, type: event.type }, 'ignoring malformed identity org event');
        return;
      }
      const orgId = change.kind === 'org.deleted' ? change.orgId : change.kind === 'org.updated' ? change.org.id : 0;
      const previous = orgId ? await ownerReader(tx).findById(orgId) : undefined;
      const outcome = await applyOrgChange(orgWriter(tx), change);
      if (outcome === 'ignored_stale') {
        log.info({ id: event.id, subject: event.subject }, 'ignoring an org event that arrived after the org was deleted');
        return;
      }
      if (change.kind === 'org.deleted' && previous) {
        // The gateway refuses to delete an organization that owns repositories; any created
        // in between go with it rather than stay unreachable.
        const removed = await removeOwnerRepositories(tx, change.orgId);
        // Last, so a failure rolls the transaction back and the event is retried.
        if (removed.length) await storage?.removeOwner(previous.login);
      }
      if (change.kind === 'org.updated' && previous && previous.login !== change.org.login) {
        await renameOwnerRepositories(tx, change.org.id, change.org.login);
        await storage?.moveOwner(previous.login, change.org.login);
      }
    },
  };
}
