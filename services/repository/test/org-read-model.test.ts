// The rules that keep the org/team read model in step with identity's events, over a fake
// writer: late or repeated events never bring back a deleted organization or team.
import { describe, expect, it } from '@jest/globals';
import { applyOrgChange, type OrgWriter, type TeamState } from '../src/domain/org-read-model.js';
import type { Owner } from '../src/domain/owner.js';

function fakeWriter() {
  const owners = new Map<number, Owner>();
  const deletedOwners = new Set<number>();
  const teams = new Map<number, TeamState>();
  const deletedTeams = new Set<number>();
  const members = new Set<string>();
  const writer: OrgWriter = {
    isDeleted: async (id) => deletedOwners.has(id),
    insertIfAbsent: async (o) => { if (!owners.has(o.id)) owners.set(o.id, o); },
    save: async (o) => { owners.set(o.id, o); },
    remove: async (id) => { owners.delete(id); deletedOwners.add(id); },
    isTeamDeleted: async (id) => deletedTeams.has(id),
    saveTeam: async (t) => { teams.set(t.id, t); },
    removeTeam: async (id) => { teams.delete(id); deletedTeams.add(id); for (const m of [...members]) if (m.startsWith(`${id}:`)) members.delete(m); },
    removeTeamsOf: async (orgId) => { for (const t of [...teams.values()]) if (t.orgId === orgId) await writer.removeTeam(t.id); },
    addMember: async (teamId, _orgId, userId) => { members.add(`${teamId}:${userId}`); },
    removeMember: async (teamId, userId) => { members.delete(`${teamId}:${userId}`); },
  };
  return { writer, owners, teams, members };
}

const org = (id: number, login: string): Owner => ({
  id, login, type: 'organization', isAdmin: false, restricted: false, visibility: 'public', fullName: '', email: '', maxRepoCreation: -1,
});
const team = (id: number, orgId: number): TeamState => ({ id, orgId, name: `t${id}`, permission: 'read', unitsMap: {}, includesAllRepositories: false, canCreateOrgRepo: false });

describe('applying org and team events', () => {
  it('adds an organization once, and a later update replaces it', async () => {
    const { writer, owners } = fakeWriter();
    await applyOrgChange(writer, { kind: 'org.created', org: org(1, 'acme') });
    await applyOrgChange(writer, { kind: 'org.created', org: org(1, 'stale') });
    expect(owners.get(1)?.login).toBe('acme');
    await applyOrgChange(writer, { kind: 'org.updated', org: org(1, 'acme-inc') });
    expect(owners.get(1)?.login).toBe('acme-inc');
  });

  it('drops the teams and memberships of a deleted organization, and ignores its late events', async () => {
    const { writer, owners, teams, members } = fakeWriter();
    await applyOrgChange(writer, { kind: 'org.created', org: org(1, 'acme') });
    await applyOrgChange(writer, { kind: 'team.saved', team: team(10, 1) });
    await applyOrgChange(writer, { kind: 'member.added', teamId: 10, orgId: 1, userId: 5 });
    await applyOrgChange(writer, { kind: 'org.deleted', orgId: 1 });
    expect([owners.size, teams.size, members.size]).toEqual([0, 0, 0]);

    expect(await applyOrgChange(writer, { kind: 'org.updated', org: org(1, 'acme') })).toBe('ignored_stale');
    expect(await applyOrgChange(writer, { kind: 'team.saved', team: team(11, 1) })).toBe('ignored_stale');
    expect(await applyOrgChange(writer, { kind: 'member.added', teamId: 10, orgId: 1, userId: 5 })).toBe('ignored_stale');
    expect([owners.size, teams.size, members.size]).toEqual([0, 0, 0]);
  });

  it('keeps a deleted team deleted when its creation or a membership is retried late', async () => {
    const { writer, teams, members } = fakeWriter();
    await applyOrgChange(writer, { kind: 'org.created', org: org(1, 'acme') });
    await applyOrgChange(writer, { kind: 'team.saved', team: team(10, 1) });
    await applyOrgChange(writer, { kind: 'team.deleted', teamId: 10 });
    expect(await applyOrgChange(writer, { kind: 'team.saved', team: team(10, 1) })).toBe('ignored_stale');
    expect(await applyOrgChange(writer, { kind: 'member.added', teamId: 10, orgId: 1, userId: 5 })).toBe('ignored_stale');
    expect([teams.size, members.size]).toEqual([0, 0]);
  });

  it('adds and removes memberships idempotently', async () => {
    const { writer, members } = fakeWriter();
    await applyOrgChange(writer, { kind: 'org.created', org: org(1, 'acme') });
    await applyOrgChange(writer, { kind: 'team.saved', team: team(10, 1) });
    await applyOrgChange(writer, { kind: 'member.added', teamId: 10, orgId: 1, userId: 5 });
    await applyOrgChange(writer, { kind: 'member.added', teamId: 10, orgId: 1, userId: 5 });
    expect([...members]).toEqual(['10:5']);
    await applyOrgChange(writer, { kind: 'member.removed', teamId: 10, orgId: 1, userId: 5 });
    await applyOrgChange(writer, { kind: 'member.removed', teamId: 10, orgId: 1, userId: 5 });
    expect(members.size).toBe(0);
  });
});
