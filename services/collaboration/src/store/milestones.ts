// Milestones in PostgreSQL (table `milestone`). Their open/closed issue counts are
// recounted by the issue store whenever an issue joins, leaves, closes or reopens.
import type { Milestone } from '../domain/issue-store.js';
import type { MilestoneStore } from '../domain/milestones.js';
import type { Milestone as MilestoneRow, Prisma } from './generated/client.js';
import type { CollaborationDb } from './db.js';

export function toMilestone(row: MilestoneRow): Milestone {
  return {
    id: Number(row.id), title: row.name, description: row.description, isClosed: row.is_closed, openIssues: row.open_issues, closedIssues: row.closed_issues,
    createdAt: row.created_at, updatedAt: row.updated_at, closedAt: row.closed_at ?? undefined, dueDate: row.due_date ?? undefined,
  };
}

// Gitea's default order: nearest due date first, those without one last, then by id.
const ORDER: Prisma.MilestoneOrderByWithRelationInput[] = [{ due_date: { sort: 'asc', nulls: 'last' } }, { id: 'asc' }];

export function milestoneStore(db: CollaborationDb): MilestoneStore {
  return {
    async list(repositoryId, query) {
      const where: Prisma.MilestoneWhereInput = {
        repository_id: BigInt(repositoryId),
        ...(query.state === 'all' ? {} : { is_closed: query.state === 'closed' }),
        ...(query.name ? { name: { contains: query.name, mode: 'insensitive' as const } } : {}),
      };
      const [rows, total] = await Promise.all([
        db.milestone.findMany({ where, orderBy: ORDER, skip: query.offset, take: query.limit }),
        db.milestone.count({ where }),
      ]);
      return { items: rows.map(toMilestone), total };
    },

    async find(repositoryId, idOrName) {
      const repository_id = BigInt(repositoryId);
      if (/^\d{1,18}$/.test(idOrName)) {
        const byId = await db.milestone.findFirst({ where: { repository_id, id: BigInt(idOrName) } });
        if (byId) return toMilestone(byId);
      }
      const byName = await db.milestone.findFirst({ where: { repository_id, name: { equals: idOrName, mode: 'insensitive' } }, orderBy: { id: 'asc' } });
      return byName ? toMilestone(byName) : undefined;
    },

    async create(repositoryId, milestone) {
      const now = new Date();
      const row = await db.milestone.create({
        data: {
          repository_id: BigInt(repositoryId), name: milestone.title, description: milestone.description, is_closed: milestone.isClosed,
          closed_at: milestone.isClosed ? now : null, due_date: milestone.dueDate ?? null, created_at: now, updated_at: now,
        },
      });
      return toMilestone(row);
    },

    async update(_repositoryId, id, change) {
      const now = new Date();
      const current = await db.milestone.findUniqueOrThrow({ where: { id: BigInt(id) } });
      const data: Prisma.MilestoneUpdateInput = { updated_at: now };
      if (change.title !== undefined) data.name = change.title;
      if (change.description !== undefined) data.description = change.description;
      if (change.dueDate !== undefined) data.due_date = change.dueDate;
      if (change.isClosed !== undefined && change.isClosed !== current.is_closed) {
        data.is_closed = change.isClosed;
        data.closed_at = change.isClosed ? now : null;
      }
      return toMilestone(await db.milestone.update({ where: { id: BigInt(id) }, data }));
    },

    async remove(_repositoryId, id) {
      await db.milestone.delete({ where: { id: BigInt(id) } });
    },
  };
}
