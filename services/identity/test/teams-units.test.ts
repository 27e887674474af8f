// A team's permission and units as Gitea derives them from CreateTeamOption/EditTeamOption.
import { describe, expect, it } from '@jest/globals';
import { allUnitsAt, minUnitAccess, teamAccessOf } from '../src/domain/teams-units.js';
import { failureOf } from './support/fixtures.js';

describe('team access', () => {
  it('gives each listed unit the team permission, external trackers and wikis at most read', () => {
    expect(teamAccessOf({ permission: 'write', units: ['repo.code', 'repo.ext_issues', 'repo.nonsense'], units_map: {} })).toEqual({
      access_mode: 'write', units: { 'repo.code': 'write', 'repo.ext_issues': 'read' },
    });
  });

  it('takes the lowest granted unit of a units map as the team permission', () => {
    const access = teamAccessOf({ permission: 'write', units: [], units_map: { 'repo.code': 'write', 'repo.issues': 'read', 'repo.wiki': 'none' } });
    expect(access).toEqual({ access_mode: 'read', units: { 'repo.code': 'write', 'repo.issues': 'read', 'repo.wiki': 'none' } });
    expect(minUnitAccess({ 'repo.code': 'none' })).toBe('read');
  });

  it('gives admin teams every unit at admin, whatever units were asked for', () => {
    expect(teamAccessOf({ permission: 'admin', units: ['repo.code'], units_map: {} })).toEqual({ access_mode: 'admin', units: allUnitsAt('admin') });
    expect(allUnitsAt('admin')['repo.ext_wiki']).toBe('read');
  });

  it('refuses a team without units and an unknown permission', async () => {
    expect(await failureOf(Promise.resolve().then(() => teamAccessOf({ permission: 'read', units: [], units_map: {} }))))
      .toMatchObject({ kind: 'invalid', reason: 'team_units_empty' });
    expect(await failureOf(Promise.resolve().then(() => teamAccessOf({ permission: 'owner', units: ['repo.code'], units_map: {} }))))
      .toMatchObject({ kind: 'invalid', reason: 'team_permission_invalid' });
  });
});
