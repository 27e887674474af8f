// A team's permission and its per-unit access (Gitea's perm.AccessMode, unit.Type and the
// attachTeamUnits / attachTeamUnitsMap / attachAdminTeamUnits helpers of routers/api/v1/org/team.go).
import { ACCESS_MODES, invalid, toAccessMode, type AccessMode } from '@anvil/kit';

export type { AccessMode } from '@anvil/kit';

export const accessModeNumber = (mode: AccessMode): number => ACCESS_MODES.indexOf(mode);
export const accessModeOf = (n: number): AccessMode => ACCESS_MODES[n] ?? 'none';

/** Every repository unit a team can be given access to, in Gitea's order (AllRepoUnitTypes). */
export const REPO_UNITS: readonly string[] = [
  'repo.code', 'repo.issues', 'repo.pulls', 'repo.releases', 'repo.wiki', 'repo.ext_wiki',
  'repo.ext_issues', 'repo.projects', 'repo.packages', 'repo.actions',
];

/** External trackers and wikis are links: read is the most anyone gets. */
const READ_ONLY_UNITS = new Set(['repo.ext_wiki', 'repo.ext_issues']);

export type UnitsMap = Record<string, AccessMode>;

/** "read" | "write" | "admin" as a team may be given; empty means read. */
export function parsePermission(permission: string): AccessMode {
  if (permission === '') return 'read';
  if (permission === 'read' || permission === 'write' || permission === 'admin') return permission;
  throw invalid(`[permission]: permission must be one of read, write, admin`, 'team_permission_invalid');
}


/** The lowest access granted by a units map, ignoring units it gives none (MinUnitAccessMode). */
export function minUnitAccess(units: Record<string, string>): AccessMode {
  let min: AccessMode | undefined;
  for (const value of Object.values(units)) {
    const mode = toAccessMode(value);
    if (mode === 'none') continue;
    if (min === undefined || accessModeNumber(mode) < accessModeNumber(min)) min = mode;
  }
  return min ?? 'read';
}

const capped = (unit: string, mode: AccessMode): AccessMode =>
  READ_ONLY_UNITS.has(unit) && accessModeNumber(mode) > accessModeNumber('read') ? 'read' : mode;

/** Every unit at one mode (admin and owner teams, and the Owners team). */
export function allUnitsAt(mode: AccessMode): UnitsMap {
  return Object.fromEntries(REPO_UNITS.map((unit) => [unit, capped(unit, mode)]));
}

export interface TeamAccessInput {
  permission: string;
  units: readonly string[];
  units_map: Record<string, string>;
}

/**
 * A team's access mode and units from Gitea's CreateTeamOption / EditTeamOption: admin
 * teams get every unit at admin; otherwise the units map decides (the team's mode is its
 * lowest unit), else the units list at the team's mode. Unknown unit names are ignored.
 */
export function teamAccessOf(input: TeamAccessInput): { access_mode: AccessMode; units: UnitsMap } {
  let mode = parsePermission(input.permission);
  const unitsMap = Object.fromEntries(Object.entries(input.units_map).filter(([unit]) => REPO_UNITS.includes(unit)));
  if (accessModeNumber(mode) < accessModeNumber('admin') && Object.keys(unitsMap).length > 0) mode = minUnitAccess(unitsMap);
  if (accessModeNumber(mode) >= accessModeNumber('admin')) return { access_mode: mode, units: allUnitsAt('admin') };
  if (Object.keys(unitsMap).length > 0) {
    return {
      access_mode: mode,
      units: Object.fromEntries(Object.entries(unitsMap).map(([unit, value]) => [unit, capped(unit, toAccessMode(value))])),
    };
  }
  const listed = input.units.filter((unit) => REPO_UNITS.includes(unit));
  if (listed.length === 0) throw invalid('units permission should not be empty', 'team_units_empty');
  return { access_mode: mode, units: Object.fromEntries(listed.map((unit) => [unit, capped(unit, mode)])) };
}
