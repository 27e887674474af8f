// Who can be assigned to a repository's issues and pulls (Gitea's GetRepoAssignees), in one
// statement over the access tables: a user owner, collaborators with write or admin, and
// members of the owning organization's teams that reach the repository with write access
// (overall, or on the issues or pulls unit).
import type { Owner } from '../domain/owner.js';
import type { Owner as OwnerRow } from './generated/client.js';
import type { RepositoryDb, RepositoryTx } from './db.js';
import { toOwner } from './owners.js';

export async function assignableUsers(db: RepositoryDb | RepositoryTx, repositoryId: number): Promise<Owner[]> {
  const id = BigInt(repositoryId);
  const rows = await db.$queryRaw<OwnerRow[]>`
    SELECT o.* FROM owner o
     WHERE o.type = 'user' AND o.id IN (
       SELECT r.owner_id FROM repository r WHERE r.id = ${id}
       UNION SELECT c.user_id FROM collaboration c WHERE c.repository_id = ${id} AND c.mode IN ('write', 'admin')
       UNION SELECT m.user_id FROM org_team_member m
               JOIN org_team t ON t.id = m.team_id
               JOIN repository r ON r.id = ${id} AND r.owner_id = t.org_id
              WHERE (t.permission = 'owner' OR t.includes_all_repositories
                     OR EXISTS (SELECT 1 FROM team_repository tr WHERE tr.team_id = t.id AND tr.repository_id = r.id))
                AND (t.permission IN ('write', 'admin', 'owner')
                     OR t.units_map->>'repo.issues' IN ('write', 'admin') OR t.units_map->>'repo.pulls' IN ('write', 'admin')))
     ORDER BY o.lower_name`;
  return rows.map(toOwner);
}
