// The two batched reads listing unadopted repositories needs: the owners of the storage
// root's directories, and which of its `<owner>/<name>.git` directories have a row.
import type { UnadoptedRows } from '../domain/unadopted.js';
import type { RepositoryDb } from './db.js';
import { toOwner } from './owners.js';

export function unadoptedRows(db: RepositoryDb): UnadoptedRows {
  return {
    async ownersByLogins(logins) {
      if (!logins.length) return [];
      const rows = await db.owner.findMany({ where: { lower_name: { in: logins.map((l) => l.toLowerCase()) } } });
      return rows.map(toOwner);
    },
    async existingRepositories(pairs) {
      if (!pairs.length) return new Set();
      // One statement over the (owner_id, lower_name) unique index, however many pairs.
      const rows = await db.$queryRaw<Array<{ owner_id: bigint; lower_name: string }>>`
        SELECT r.owner_id, r.lower_name
          FROM repository r
          JOIN unnest(${pairs.map((p) => BigInt(p.ownerId))}::bigint[], ${pairs.map((p) => p.lowerName)}::text[]) AS c(owner_id, lower_name)
            ON r.owner_id = c.owner_id AND r.lower_name = c.lower_name`;
      return new Set(rows.map((r) => `${Number(r.owner_id)}/${r.lower_name}`));
    },
  };
}
