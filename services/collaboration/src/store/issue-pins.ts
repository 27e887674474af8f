// Pinned issues in PostgreSQL: `issue.pin_order` 1..n among a repository's pinned issues, 0
// when not pinned. Every change locks the repository's issue_index row first, so concurrent
// pins of one repository take turns and the order never gets a gap or a duplicate.
import { TRANSACTION_OPTIONS } from '@anvil/kit';
import type { PinStore } from '../domain/issue-pins.js';
import { Prisma } from './generated/client.js';
import type { CollaborationDb, CollaborationTx } from './db.js';
import { readIssues } from './issue-rows.js';

async function lockedIssue(tx: CollaborationTx, repositoryId: number, index: number) {
  await tx.$queryRaw`SELECT 1 FROM issue_index WHERE repository_id = ${BigInt(repositoryId)} FOR UPDATE`;
  return tx.issue.findUnique({ where: { repository_id_index: { repository_id: BigInt(repositoryId), index: BigInt(index) } }, select: { id: true, pin_order: true } });
}

export function pinStore(db: CollaborationDb): PinStore {
  return {
    pin: (repositoryId, index, max) => db.$transaction(async (tx: CollaborationTx) => {
      const issue = await lockedIssue(tx, repositoryId, index);
      if (!issue) return false;
      if (issue.pin_order > 0) return 'pinned';
      const pinned = await tx.issue.count({ where: { repository_id: BigInt(repositoryId), pin_order: { gt: 0 } } });
      if (pinned >= max) return 'full';
      await tx.issue.update({ where: { id: issue.id }, data: { pin_order: pinned + 1 } });
      return 'pinned';
    }, TRANSACTION_OPTIONS),

    unpin: (repositoryId, index) => db.$transaction(async (tx: CollaborationTx) => {
      const issue = await lockedIssue(tx, repositoryId, index);
      if (!issue) return false;
      if (issue.pin_order === 0) return true;
      await tx.issue.update({ where: { id: issue.id }, data: { pin_order: 0 } });
      await tx.issue.updateMany({ where: { repository_id: BigInt(repositoryId), pin_order: { gt: issue.pin_order } }, data: { pin_order: { decrement: 1 } } });
      return true;
    }, TRANSACTION_OPTIONS),

    move: (repositoryId, index, position) => db.$transaction(async (tx: CollaborationTx) => {
      const issue = await lockedIssue(tx, repositoryId, index);
      if (!issue) return false;
      if (issue.pin_order === 0) return true;
      const pinned = await tx.issue.count({ where: { repository_id: BigInt(repositoryId), pin_order: { gt: 0 } } });
      const to = Math.min(Math.max(position, 1), pinned);
      const from = issue.pin_order;
      if (to === from) return true;
      const repo = BigInt(repositoryId);
      // Shift the issues between the old and the new place by one, then put this one there.
      if (to < from) await tx.$executeRaw`UPDATE issue SET pin_order = pin_order + 1 WHERE repository_id = ${repo} AND pin_order >= ${to} AND pin_order < ${from}`;
      else await tx.$executeRaw`UPDATE issue SET pin_order = pin_order - 1 WHERE repository_id = ${repo} AND pin_order > ${from} AND pin_order <= ${to}`;
      await tx.issue.update({ where: { id: issue.id }, data: { pin_order: to } });
      return true;
    }, TRANSACTION_OPTIONS),

    pinned: (repositoryId) => readIssues(db, Prisma.sql`i.repository_id = ${BigInt(repositoryId)} AND i.pin_order > 0`, Prisma.sql`i.pin_order`),
  };
}
