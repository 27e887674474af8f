// The git facts of a repository (`repository.licenses`); written
// only when they changed, so a redelivered event neither bumps `updated_at` nor wakes caches.
import type { GitFactsStore } from '../domain/git-facts.js';
import { queryRows, type RepositoryDb } from './db.js';
import { Prisma } from './generated/client.js';

export function gitFactsStore(db: RepositoryDb): GitFactsStore {
  return {
    async save(repositoryId, facts) {
      await queryRows(db, Prisma.sql`
        UPDATE repository SET licenses = ${facts.licenses}::text[]
        WHERE id = ${BigInt(repositoryId)} AND licenses IS DISTINCT FROM ${facts.licenses}::text[]`, 'save-git-facts');
    },
    async idsWithoutFacts(afterId, limit) {
      const rows = await db.repository.findMany({
        where: { id: { gt: BigInt(afterId) }, empty: false, branch_count: 0 },
        select: { id: true }, orderBy: { id: 'asc' }, take: limit,
      });
      return rows.map((r) => Number(r.id));
    },
  };
}
