// The organization/team read model in PostgreSQL (tables `org_team`, `org_team_member`) and
// teams' explicit repositories (`team_repository`): the queries the access rules need.
import type { MemberTeam } from '../domain/org-access.js';
import type { RepositoryDb, RepositoryTx } from './db.js';

interface MemberTeamRow {
  team_id: bigint;
  org_id: bigint;
  name: string;
  permission: string;
  units_map: unknown;
  includes_all_repositories: boolean;
  can_create_org_repo: boolean;
  repository_ids: bigint[] | null;
}

export function toMemberTeam(row: MemberTeamRow | Record<string, unknown>): MemberTeam {
  const r = row as MemberTeamRow;
  return {
    teamId: Number(r.team_id),
    orgId: Number(r.org_id),
    name: r.name ?? '',
    permission: r.permission,
    unitsMap: (r.units_map && typeof r.units_map === 'object' ? r.units_map : {}) as Record<string, string>,
    includesAllRepositories: r.includes_all_repositories,
    canCreateOrgRepo: r.can_create_org_repo,
    repositoryIds: (r.repository_ids ?? []).map(Number),
  };
}

/**
 * The teams `userId` belongs to (in `orgIds`, or every org when omitted), each with which of
 * `repositoryIds` it was given explicitly. One statement.
 */
export async function memberTeamsOf(db: RepositoryDb | RepositoryTx, userId: number, orgIds: number[] | undefined, repositoryIds: number[]): Promise<MemberTeam[]> {
  if (userId <= 0 || (orgIds && orgIds.length === 0)) return [];
  const orgs = orgIds ? orgIds.map(BigInt) : null;
  const repos = repositoryIds.map(BigInt);
  const rows = await db.$queryRaw<MemberTeamRow[]>`
    SELECT t.id AS team_id, t.org_id, t.name, t.permission, t.units_map, t.includes_all_repositories, t.can_create_org_repo,
           ARRAY(SELECT tr.repository_id FROM team_repository tr
                  WHERE tr.team_id = t.id AND tr.repository_id = ANY(${repos}::bigint[])) AS repository_ids
      FROM org_team t
      JOIN org_team_member m ON m.team_id = t.id
     WHERE m.user_id = ${BigInt(userId)}
       AND (${orgs}::bigint[] IS NULL OR t.org_id = ANY(${orgs}::bigint[]))`;
  return rows.map(toMemberTeam);
}
