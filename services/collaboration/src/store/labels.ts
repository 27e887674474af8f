// Labels in PostgreSQL (table `label`): a repository's own (repository_id) or an
// organization's (org_id), usable by name or id. Creating, editing and deleting one writes
// its event in the same transaction (outbox).
import { outboxTransaction, type OutboxStoreOptions } from '@anvil/kit';
import type { Label } from '../domain/issue-store.js';
import type { LabelOwner, LabelStore, NewLabel } from '../domain/labels.js';
import { outboxRowOfLabelEvent, type CatalogChangeContext, type LabelAction } from '../events/label-events.js';
import type { Label as LabelRow, Prisma } from './generated/client.js';
import type { CollaborationDb, CollaborationTx } from './db.js';
import { profileOf } from './users.js';

export function toLabel(row: LabelRow): Label {
  return {
    id: Number(row.id), name: row.name, color: row.color, description: row.description, exclusive: row.exclusive,
    isArchived: row.archived_at !== null, repositoryId: Number(row.repository_id ?? 0), orgId: Number(row.org_id ?? 0),
  };
}

function dataOf(change: Partial<NewLabel>): Prisma.LabelUncheckedUpdateInput {
  const data: Prisma.LabelUncheckedUpdateInput = { updated_at: new Date() };
  if (change.name !== undefined) data.name = change.name;
  if (change.color !== undefined) data.color = change.color;
  if (change.description !== undefined) data.description = change.description;
  if (change.exclusive !== undefined) data.exclusive = change.exclusive;
  if (change.isArchived !== undefined) data.archived_at = change.isArchived ? new Date() : null;
  return data;
}

const ownerWhere = (owner: LabelOwner) => ('orgId' in owner ? { org_id: BigInt(owner.orgId) } : { repository_id: BigInt(owner.repositoryId) });

// Gitea lists labels alphabetically; the id keeps equal names in a stable order.
const ORDER: Prisma.LabelOrderByWithRelationInput[] = [{ name: 'asc' }, { id: 'asc' }];

export function labelStore(db: CollaborationDb, options: OutboxStoreOptions = {}): LabelStore {
  /** Runs a change and writes the event `work` returns (if any) in one transaction. */
  const withEvent = <R>(context: CatalogChangeContext, work: (tx: CollaborationTx) => Promise<{ result: R; event?: [LabelAction, Label] }>) =>
    outboxTransaction(db, (tx: CollaborationTx, published: string[]) => ({ tx, published }), async ({ tx, published }) => {
      const { result, event } = await work(tx);
      if (event) {
        // The sender as identity described them, for the webhook's `sender`.
        const row = outboxRowOfLabelEvent({ ...context, sender: await profileOf(tx, context.sender) }, event[0], event[1]);
        await tx.outboxEvent.create({ data: row });
        published.push(row.id);
      }
      return result;
    }, options);

  return {
    async list(owner, page) {
      const where = ownerWhere(owner);
      const [rows, total] = await Promise.all([
        db.label.findMany({ where, orderBy: ORDER, skip: page.offset, take: page.limit }),
        db.label.count({ where }),
      ]);
      return { items: rows.map(toLabel), total };
    },

    async find(owner, id) {
      const row = await db.label.findFirst({ where: { id: BigInt(id), ...ownerWhere(owner) } });
      return row ? toLabel(row) : undefined;
    },

    create(owner, label, context) {
      return withEvent(context, async (tx) => {
        const row = await tx.label.create({
          data: {
            ...ownerWhere(owner), name: label.name, color: label.color, description: label.description,
            exclusive: label.exclusive, archived_at: label.isArchived ? new Date() : null,
          },
        });
        const created = toLabel(row);
        return { result: created, event: ['created', created] };
      });
    },

    update(owner, id, change, context) {
      return withEvent(context, async (tx) => {
        const { count } = await tx.label.updateMany({ where: { id: BigInt(id), ...ownerWhere(owner) }, data: dataOf(change) });
        if (!count) return { result: undefined };
        const updated = toLabel((await tx.label.findUnique({ where: { id: BigInt(id) } }))!);
        return { result: updated, event: ['edited', updated] };
      });
    },

    remove(owner, id, context) {
      return withEvent(context, async (tx) => {
        const row = await tx.label.findFirst({ where: { id: BigInt(id), ...ownerWhere(owner) } });
        if (!row) return { result: false };
        await tx.label.delete({ where: { id: row.id } });
        return { result: true, event: ['deleted', toLabel(row)] };
      });
    },

    async usable(repository, tokens) {
      const ids = tokens.filter((t) => /^\d{1,18}$/.test(t)).map((t) => BigInt(t));
      const names = tokens.map((t) => t.toLowerCase());
      const owners: Prisma.LabelWhereInput[] = [{ repository_id: BigInt(repository.id) }];
      if (repository.ownerIsOrg) owners.push({ org_id: BigInt(repository.ownerId) });
      const rows = await db.label.findMany({
        where: { AND: [{ OR: owners }, { OR: [{ id: { in: ids } }, ...names.map((name) => ({ name: { equals: name, mode: 'insensitive' as const } }))] }] },
        orderBy: ORDER,
      });
      // A token names one label: its id first, else the first of that name.
      const picked = new Map<number, Label>();
      for (const token of tokens) {
        const row = rows.find((r) => String(r.id) === token) ?? rows.find((r) => r.name.toLowerCase() === token.toLowerCase());
        if (row) picked.set(Number(row.id), toLabel(row));
      }
      return [...picked.values()];
    },
  };
}
