// Issue dependencies in PostgreSQL (table `issue_dependency`); lists are one statement.
import type { DependencyStore } from '../domain/issue-dependencies.js';
import { Prisma } from './generated/client.js';
import type { CollaborationDb } from './db.js';
import { readIssues } from './issue-rows.js';

export function dependencyStore(db: CollaborationDb): DependencyStore {
  return {
    async list(issueId, blocks, page) {
      const id = BigInt(issueId);
      const others = blocks
        ? Prisma.sql`i.id IN (SELECT issue_id FROM issue_dependency WHERE dependency_id = ${id})`
        : Prisma.sql`i.id IN (SELECT dependency_id FROM issue_dependency WHERE issue_id = ${id})`;
      const [items, total] = await Promise.all([
        readIssues(db, others, Prisma.sql`i.index LIMIT ${page.limit} OFFSET ${page.offset}`),
        db.issueDependency.count({ where: blocks ? { dependency_id: id } : { issue_id: id } }),
      ]);
      return { items, total };
    },
    async add(issueId, dependencyId) {
      await db.issueDependency.createMany({ data: [{ issue_id: BigInt(issueId), dependency_id: BigInt(dependencyId) }], skipDuplicates: true });
    },
    async remove(issueId, dependencyId) {
      await db.issueDependency.deleteMany({ where: { issue_id: BigInt(issueId), dependency_id: BigInt(dependencyId) } });
    },
    async exists(issueId, dependencyId) {
      return (await db.issueDependency.count({ where: { issue_id: BigInt(issueId), dependency_id: BigInt(dependencyId) } })) > 0;
    },
  };
}
