// identity.Team → Gitea's Team JSON (services/convert ToTeams). `organization` is embedded
// where Gitea loads it (a single team, the caller's teams) and null in an org's team list.
import type { identity } from '@anvil/proto';
import { presentOrg } from './org.js';

// Gitea lists a team's units in unit-type order.
const UNIT_ORDER = [
  'repo.code', 'repo.issues', 'repo.pulls', 'repo.releases', 'repo.wiki', 'repo.ext_wiki',
  'repo.ext_issues', 'repo.projects', 'repo.packages', 'repo.actions',
];
const rank = (unit: string) => (UNIT_ORDER.indexOf(unit) + UNIT_ORDER.length + 1) % (UNIT_ORDER.length + 1);

export function presentTeam(team: identity.Team, rootUrl: string) {
  const units = Object.keys(team.units_map).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    organization: team.organization ? presentOrg(team.organization, rootUrl) : null,
    includes_all_repositories: team.includes_all_repositories,
    permission: team.permission,
    units,
    units_map: Object.fromEntries(units.map((unit) => [unit, team.units_map[unit]])),
    can_create_org_repo: team.can_create_org_repo,
    visibility: team.visibility,
  };
}
