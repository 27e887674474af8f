// A repository's open and closed issue and pull counts, kept on its `issue_index` row (lists
// answer unfiltered totals from them), and announced: every change of them writes the counts
// as they now are to the outbox (events/issue-count-events.ts) in the same transaction. The
// row's `counts_version` is bumped by the same UPDATE that reads the counts back, under the
// row's lock, so versions follow the order in which the changes commit.
import { outboxRowOfIssueCounts } from '../events/issue-count-events.js';
import { Prisma } from './generated/client.js';
import type { CollaborationDb, CollaborationTx } from './db.js';

/** Which counter an issue counts in. */
export interface IssueKind {
  isPull: boolean;
  isClosed: boolean;
}

const columnOf = (kind: IssueKind) => Prisma.raw(`${kind.isClosed ? 'closed' : 'open'}_${kind.isPull ? 'pulls' : 'issues'}`);

interface CountsRow {
  open_issues: bigint;
  closed_issues: bigint;
  open_pulls: bigint;
  closed_pulls: bigint;
  counts_version: bigint;
}

/** Writes the counts of the repository (after this transaction's change) to the outbox. */
export async function announceIssueCounts(tx: CollaborationTx, repositoryId: number): Promise<void> {
  const rows = await tx.$queryRaw<CountsRow[]>`
    UPDATE issue_index SET counts_version = counts_version + 1 WHERE repository_id = ${BigInt(repositoryId)}
    RETURNING open_issues, closed_issues, open_pulls, closed_pulls, counts_version`;
  const row = rows[0];
  if (!row) return;
  await tx.outboxEvent.create({
    data: outboxRowOfIssueCounts({
      repository_id: repositoryId, open_issues: Number(row.open_issues), closed_issues: Number(row.closed_issues),
      open_pulls: Number(row.open_pulls), closed_pulls: Number(row.closed_pulls), version: Number(row.counts_version),
    }),
  });
}

/** Moves one issue or pull from the counter `from` to `to` (either may be absent: deleted), and announces the counts. */
export async function moveIssueCount(tx: CollaborationTx, repositoryId: number, from: IssueKind | undefined, to: IssueKind | undefined): Promise<void> {
  const id = BigInt(repositoryId);
  if (from) await tx.$executeRaw`UPDATE issue_index SET ${columnOf(from)} = ${columnOf(from)} - 1 WHERE repository_id = ${id}`;
  if (to) await tx.$executeRaw`UPDATE issue_index SET ${columnOf(to)} = ${columnOf(to)} + 1 WHERE repository_id = ${id}`;
  await announceIssueCounts(tx, repositoryId);
}

/**
 * Takes the repository's next index for a new issue or pull of `kind`, counting it, in one
 * upsert (concurrent creators queue on the row lock). The caller announces the counts once
 * the creation can no longer be refused.
 */
export async function takeIssueIndex(tx: CollaborationTx, repositoryId: number, kind: IssueKind): Promise<bigint> {
  const column = columnOf(kind);
  const [{ max_index }] = await tx.$queryRaw<Array<{ max_index: bigint }>>`
    INSERT INTO issue_index (repository_id, max_index, ${column}) VALUES (${BigInt(repositoryId)}, 1, 1)
    ON CONFLICT (repository_id) DO UPDATE SET max_index = issue_index.max_index + 1, ${column} = issue_index.${column} + 1
    RETURNING max_index`;
  return max_index;
}

/**
 * Announces the counts of every repository whose counts never were (kept before the events
 * existed), so the repository service learns them once; run in the background at start.
 */
export async function announceUnannouncedCounts(db: CollaborationDb): Promise<number> {
  let announced = 0;
  for (;;) {
    const rows = await db.$queryRaw<Array<{ repository_id: bigint }>>`SELECT repository_id FROM issue_index WHERE counts_version = 0 ORDER BY repository_id LIMIT 100`;
    if (!rows.length) return announced;
    for (const { repository_id } of rows) await db.$transaction((tx) => announceIssueCounts(tx, Number(repository_id)));
    announced += rows.length;
  }
}
