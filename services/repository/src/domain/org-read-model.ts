// The rules that keep the organization/team read model in step with identity's org and team
// events. Each change runs inside the consumer's processed-event transaction (applied at most
// once); these rules make a late or repeated one harmless.
import type { Owner } from './owner.js';
import type { OwnerWriter } from './owner-read-model.js';

export interface TeamState {
  id: number;
  orgId: number;
  name: string;
  permission: string;
  unitsMap: Record<string, string>;
  includesAllRepositories: boolean;
  canCreateOrgRepo: boolean;
}

/** How the read model is written; src/store/org-read-model.ts implements it over a transaction. */
export interface OrgWriter extends OwnerWriter {
  /** Whether identity deleted this team (ids are never reused). */
  isTeamDeleted(teamId: number): Promise<boolean>;
  saveTeam(team: TeamState): Promise<void>;
  /** Removes the team, its memberships and its repository grants, and remembers its id. */
  removeTeam(teamId: number): Promise<void>;
  /** Removes every team of the organization with their memberships and grants, remembering their ids. */
  removeTeamsOf(orgId: number): Promise<void>;
  addMember(teamId: number, orgId: number, userId: number): Promise<void>;
  removeMember(teamId: number, userId: number): Promise<void>;
}

export type OrgChange =
  | { kind: 'org.created' | 'org.updated'; org: Owner }
  | { kind: 'org.deleted'; orgId: number }
  | { kind: 'team.saved'; team: TeamState }
  | { kind: 'team.deleted'; teamId: number }
  | { kind: 'member.added' | 'member.removed'; teamId: number; orgId: number; userId: number };

export type OrgApplyOutcome = 'applied' | 'ignored_stale';

export async function applyOrgChange(writer: OrgWriter, change: OrgChange): Promise<OrgApplyOutcome> {
  switch (change.kind) {
    case 'org.created':
      if (await writer.isDeleted(change.org.id)) return 'ignored_stale';
      await writer.insertIfAbsent(change.org);
      return 'applied';
    case 'org.updated':
      // The payload is the whole state after the change: the last one wins, but nothing
      // revives a deleted organization.
      if (await writer.isDeleted(change.org.id)) return 'ignored_stale';
      await writer.save(change.org);
      return 'applied';
    case 'org.deleted':
      await writer.removeTeamsOf(change.orgId);
      await writer.remove(change.orgId);
      return 'applied';
    case 'team.saved':
      if (await writer.isDeleted(change.team.orgId) || await writer.isTeamDeleted(change.team.id)) return 'ignored_stale';
      await writer.saveTeam(change.team);
      return 'applied';
    case 'team.deleted':
      await writer.removeTeam(change.teamId);
      return 'applied';
    case 'member.added':
      if (await writer.isDeleted(change.orgId) || await writer.isDeleted(change.userId) || await writer.isTeamDeleted(change.teamId)) return 'ignored_stale';
      await writer.addMember(change.teamId, change.orgId, change.userId);
      return 'applied';
    case 'member.removed':
      await writer.removeMember(change.teamId, change.userId);
      return 'applied';
  }
}
