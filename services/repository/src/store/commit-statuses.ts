// Commit statuses in PostgreSQL (tables `commit_status` and `commit_status_index`). The
// index of a new status comes from an upsert on its commit's `commit_status_index` row in
// the transaction that inserts it: concurrent writers for one commit queue on that row
// lock, so each gets its own index and none is lost (Gitea's postgresGetCommitStatusIndex).
import { createHash } from 'node:crypto';
import { TRANSACTION_OPTIONS } from '@anvil/kit';
import type { CommitStatus, CommitStatusQuery, CommitStatusState, CommitStatusStore, CommitStatusView } from '../domain/commit-statuses.js';
import { outboxRowOfCommitStatus } from '../events/commit-status-events.js';
import type { CommitStatus as CommitStatusRow, Prisma } from './generated/client.js';
import type { RepositoryDb, RepositoryTx } from './db.js';
import { eventFactsReader } from './event-facts.js';
import { toOwner } from './owners.js';
import { toRepository } from './repositories.js';

/** sha1 of the context, as Gitea's hashCommitStatusContext: the fixed-width key "latest per context" groups on. */
export const contextHash = (context: string) => createHash('sha1').update(context).digest('hex');

function toCommitStatus(row: CommitStatusRow): CommitStatus {
  return {
    repositoryId: Number(row.repository_id), sha: row.sha, index: Number(row.index), state: row.state as CommitStatusState,
    targetUrl: row.target_url, description: row.description, context: row.context, creatorId: Number(row.creator_id),
    created_at: row.created_at, updated_at: row.updated_at,
  };
}

const ORDER: Record<CommitStatusQuery['sort'], Prisma.CommitStatusOrderByWithRelationInput[]> = {
  newest: [{ id: 'desc' }],
  oldest: [{ id: 'asc' }],
  recentupdate: [{ updated_at: 'desc' }, { id: 'desc' }],
  leastupdate: [{ updated_at: 'asc' }, { id: 'asc' }],
  // Gitea's names read backwards: "leastindex" sorts by index descending, "highestindex" ascending.
  leastindex: [{ index: 'desc' }],
  highestindex: [{ index: 'asc' }],
};

export function commitStatusStore(db: RepositoryDb, options: { onPublished?: () => void } = {}): CommitStatusStore {
  /** Statuses with their creators from the owner read model: one more statement for the page's distinct creators. */
  async function withCreators(rows: CommitStatusRow[]): Promise<CommitStatusView[]> {
    const ids = [...new Set(rows.map((r) => r.creator_id))];
    const owners = ids.length ? await db.owner.findMany({ where: { id: { in: ids } } }) : [];
    const byId = new Map(owners.map((o) => [o.id, toOwner(o)]));
    return rows.map((r) => ({ ...toCommitStatus(r), creator: byId.get(r.creator_id) }));
  }

  return {
    async create(status, eventOf) {
      const repositoryId = BigInt(status.repositoryId);
      const stored = await db.$transaction(async (tx: RepositoryTx) => {
        const [{ max_index }] = await tx.$queryRaw<Array<{ max_index: bigint }>>`
          INSERT INTO commit_status_index (repository_id, sha, max_index) VALUES (${repositoryId}, ${status.sha}, 1)
          ON CONFLICT (repository_id, sha) DO UPDATE SET max_index = commit_status_index.max_index + 1
          RETURNING max_index`;
        const row = await tx.commitStatus.create({
          data: {
            repository_id: repositoryId, sha: status.sha, index: max_index, state: status.state,
            target_url: status.targetUrl, description: status.description, context: status.context,
            context_hash: contextHash(status.context), creator_id: BigInt(status.creatorId),
          },
        });
        const created = toCommitStatus(row);
        const event = eventOf(created);
        const facts = await eventFactsReader(tx, toRepository).factsOf(event.repository, event.creator.id);
        await tx.outboxEvent.create({ data: outboxRowOfCommitStatus(event, facts) });
        return created;
      }, TRANSACTION_OPTIONS);
      options.onPublished?.();
      return stored;
    },

    async list(repositoryId, sha, query) {
      const where = { repository_id: BigInt(repositoryId), sha, ...(query.state ? { state: query.state } : {}) };
      const [rows, total] = await Promise.all([
        db.commitStatus.findMany({ where, orderBy: ORDER[query.sort], skip: query.offset, take: query.limit }),
        db.commitStatus.count({ where }),
      ]);
      return { items: await withCreators(rows), total };
    },

    async latestPerContext(repositoryId, sha) {
      // The highest id of each context hash (index commit_status(repository_id, sha, context_hash, id)).
      const rows = await db.$queryRaw<CommitStatusRow[]>`
        SELECT * FROM (
          SELECT DISTINCT ON (context_hash) * FROM commit_status
          WHERE repository_id = ${BigInt(repositoryId)} AND sha = ${sha}
          ORDER BY context_hash, id DESC
        ) latest ORDER BY id DESC`;
      return withCreators(rows);
    },
  };
}

/** Removes the statuses of a deleted repository (no foreign key: see the schema). */
export async function removeRepositoryCommitStatuses(db: RepositoryDb | RepositoryTx, repositoryId: number): Promise<void> {
  const id = BigInt(repositoryId);
  await db.commitStatus.deleteMany({ where: { repository_id: id } });
  await db.commitStatusIndex.deleteMany({ where: { repository_id: id } });
}
