// Milestones in PostgreSQL (table `milestone`). Their open/closed issue counts are
// recounted by the issue store whenever an issue joins, leaves, closes or reopens. Creating,
// editing, closing, reopening and deleting one writes its event in the same transaction.
import { outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import type { Milestone } from '../domain/issue-store.js';
import type { MilestoneStore } from '../domain/milestones.js';
import { outboxRowOfMilestoneEvent, type CatalogChangeContext, type MilestoneAction } from '../events/label-events.js';
import type { Milestone as MilestoneRow, Prisma } from './generated/client.js';
import type { CollaborationDb, CollaborationTx } from './db.js';
import { profileOf } from './users.js';

export function toMilestone(row: MilestoneRow): Milestone {
  return {
    id: Number(row.id), title: row.name, description: row.description, isClosed: row.is_closed, openIssues: row.open_issues, closedIssues: row.closed_issues,
    createdAt: row.created_at, updatedAt: row.updated_at, closedAt: row.closed_at ?? undefined, dueDate: row.due_date ?? undefined,
  };
}

// Gitea's default order: nearest due date first, those without one last, then by id.
const ORDER: Prisma.MilestoneOrderByWithRelationInput[] = [{ due_date: { sort: 'asc', nulls: 'last' } }, { id: 'asc' }];

export function milestoneStore(db: CollaborationDb, options: OutboxStoreOptions = {}): MilestoneStore {
  /** Runs a change and writes its events in one transaction. */
  const withEvents = <R>(context: CatalogChangeContext, work: (tx: CollaborationTx) => Promise<{ result: R; events: Array<[MilestoneAction, Milestone]> }>) =>
    outboxTransaction(db, (tx: CollaborationTx, published: string[]) => ({ tx, published }), async ({ tx, published }) => {
      const { result, events } = await work(tx);
      const sender = events.length ? await profileOf(tx, context.sender) : context.sender;
      for (const [action, milestone] of events) {
        const row = outboxRowOfMilestoneEvent({ ...context, sender }, action, milestone);
        await tx.outboxEvent.create({ data: row });
        published.push(row.id);
      }
      return result;
    }, options);

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

    create(repositoryId, milestone, context) {
      return withEvents(context, async (tx) => {
        const now = new Date();
        const row = await tx.milestone.create({
          data: {
            repository_id: BigInt(repositoryId), name: milestone.title, description: milestone.description, is_closed: milestone.isClosed,
            closed_at: milestone.isClosed ? now : null, due_date: milestone.dueDate ?? null, created_at: now, updated_at: now,
          },
        });
        const created = toMilestone(row);
        return { result: created, events: [['created', created]] };
      });
    },

    update(_repositoryId, id, change, context) {
      return withEvents(context, async (tx) => {
        const now = new Date();
        const current = await tx.milestone.findUniqueOrThrow({ where: { id: BigInt(id) } });
        const data: Prisma.MilestoneUpdateInput = { updated_at: now };
        if (change.title !== undefined) data.name = change.title;
        if (change.description !== undefined) data.description = change.description;
        if (change.dueDate !== undefined) data.due_date = change.dueDate;
        const stateChanged = change.isClosed !== undefined && change.isClosed !== current.is_closed;
        if (stateChanged) {
          data.is_closed = change.isClosed;
          data.closed_at = change.isClosed ? now : null;
        }
        const updated = toMilestone(await tx.milestone.update({ where: { id: BigInt(id) }, data }));
        const edited = change.title !== undefined || change.description !== undefined || change.dueDate !== undefined;
        const events: Array<[MilestoneAction, Milestone]> = [];
        if (edited) events.push(['edited', updated]);
        if (stateChanged) events.push([updated.isClosed ? 'closed' : 'opened', updated]);
        return { result: updated, events };
      });
    },

    remove(_repositoryId, id, context) {
      return withEvents(context, async (tx) => {
        const row = await tx.milestone.delete({ where: { id: BigInt(id) } });
        return { result: undefined, events: [['deleted', toMilestone(row)]] };
      });
    },
  };
}
