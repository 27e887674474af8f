// A repository's open and closed issue and pull counts, kept on its `issue_index` row (lists
// answer unfiltered totals from them), and announced: every change of them writes the counts
// as they now are to the outbox (events/issue-count-events.ts) in the same transaction. The
// statement that changes the counts also bumps the row's `counts_version` and reads them back,
// under the row's lock, so versions follow the order in which the changes commit.
import type { OutboxEventRow } from '@anvil/kit';
import { outboxRowOfIssueCounts } from '../events/issue-count-events.js';
import { Prisma } from './generated/client.js';
import type { CollaborationDb, CollaborationTx } from './db.js';

/** Which counter an issue counts in. */
export interface IssueKind {
  isPull: boolean;
  isClosed: boolean;
}

/** A repository's counts after a change, as the statement that made it read them back. */
export interface IssueCounts {
  open_issues: bigint;
  closed_issues: bigint;
  open_pulls: bigint;
  closed_pulls: bigint;
  counts_version: bigint;
}

const columnOf = (kind: IssueKind) => Prisma.raw(`${kind.isClosed ? 'closed' : 'open'}_${kind.isPull ? 'pulls' : 'issues'}`);
const RETURNING_COUNTS = Prisma.sql`RETURNING open_issues, closed_issues, open_pulls, closed_pulls, counts_version`;

/** The outbox row announcing the counts a change left (pg answers them as strings, Prisma as bigints). */
export function issueCountsRow(repositoryId: number, counts: IssueCounts | Record<keyof IssueCounts, string>): OutboxEventRow {
  return outboxRowOfIssueCounts({
    repository_id: repositoryId, open_issues: Number(counts.open_issues), closed_issues: Number(counts.closed_issues),
    open_pulls: Number(counts.open_pulls), closed_pulls: Number(counts.closed_pulls), version: Number(counts.counts_version),
  });
}

/** Writes the counts a change left to the outbox. */
export async function announceIssueCounts(tx: CollaborationTx, repositoryId: number, counts: IssueCounts | undefined): Promise<void> {
  if (!counts) return;
  await tx.outboxEvent.create({ data: issueCountsRow(repositoryId, counts) });
}

/**
 * The statement that moves one issue or pull from the counter `from` to `to` (`to` absent:
 * deleted) and reads the counts back (IssueCounts): a writer may run it as the last part of
 * its own statement, then announce what it read. `when`: a condition the move also needs
 * (a writer's statement that may turn out to change nothing).
 */
export function countMove(repositoryId: number, from: IssueKind, to: IssueKind | undefined, when?: Prisma.Sql): Prisma.Sql {
  const changes = [Prisma.sql`${columnOf(from)} = ${columnOf(from)} - 1`];
  if (to) changes.push(Prisma.sql`${columnOf(to)} = ${columnOf(to)} + 1`);
  return Prisma.sql`UPDATE issue_index SET ${Prisma.join(changes)}, counts_version = counts_version + 1
    WHERE repository_id = ${BigInt(repositoryId)} ${when ? Prisma.sql`AND ${when}` : Prisma.empty} ${RETURNING_COUNTS}`;
}

/** Moves one issue or pull from the counter `from` to `to` (`to` absent: deleted), and announces the counts. */
export async function moveIssueCount(tx: CollaborationTx, repositoryId: number, from: IssueKind, to: IssueKind | undefined): Promise<void> {
  const [counts] = await tx.$queryRaw<IssueCounts[]>`${countMove(repositoryId, from, to)}`;
  await announceIssueCounts(tx, repositoryId, counts);
}

/**
 * Takes the repository's next index for a new issue or pull of `kind`, counting it, in one
 * upsert (concurrent creators queue on the row lock). The caller announces the counts it
 * answers once the creation can no longer be refused.
 */
export async function takeIssueIndex(tx: CollaborationTx, repositoryId: number, kind: IssueKind): Promise<{ index: bigint; counts: IssueCounts }> {
  const column = columnOf(kind);
  const [row] = await tx.$queryRaw<Array<IssueCounts & { max_index: bigint }>>`
    INSERT INTO issue_index (repository_id, max_index, ${column}, counts_version) VALUES (${BigInt(repositoryId)}, 1, 1, 1)
    ON CONFLICT (repository_id) DO UPDATE SET max_index = issue_index.max_index + 1, ${column} = issue_index.${column} + 1,
      counts_version = issue_index.counts_version + 1
    RETURNING max_index, open_issues, closed_issues, open_pulls, closed_pulls, counts_version`;
  return { index: row!.max_index, counts: row! };
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
    for (const { repository_id: id } of rows) {
      await db.$transaction(async (tx) => {
        const [counts] = await tx.$queryRaw<IssueCounts[]>`
          UPDATE issue_index SET counts_version = counts_version + 1 WHERE repository_id = ${id} ${RETURNING_COUNTS}`;
        await announceIssueCounts(tx, Number(id), counts);
      });
    }
    announced += rows.length;
  }
}
