// Repository topics: `repository.topics` (what the Repository JSON shows) and the `topic`
// table (ids and dates for search). A topic's repository count is counted when searched,
// through the GIN index on `repository.topics`, so no counter can drift.
import type { Topic, TopicStore } from '../domain/topics.js';
import type { RepositoryDb } from './db.js';

interface TopicRow {
  id: bigint;
  name: string;
  repo_count: bigint;
  created_at: Date;
  updated_at: Date;
  total: bigint;
}

const toTopic = (row: TopicRow): Topic => ({
  id: Number(row.id), name: row.name, repo_count: Number(row.repo_count), created_at: row.created_at, updated_at: row.updated_at,
});

export function topicStore(db: RepositoryDb): TopicStore {
  return {
    async changeTopics(repositoryId, change) {
      const id = BigInt(repositoryId);
      await db.$transaction(async (tx) => {
        // The row lock orders concurrent edits of one repository's topics.
        const [row] = await tx.$queryRaw<Array<{ topics: string[] }>>`SELECT topics FROM repository WHERE id = ${id} FOR UPDATE`;
        if (!row) return;
        const next = change(row.topics ?? []);
        const added = next.filter((t) => !row.topics.includes(t));
        if (added.length) {
          await tx.topic.createMany({ data: added.map((name) => ({ name })), skipDuplicates: true });
          await tx.topic.updateMany({ where: { name: { in: added } }, data: { updated_at: new Date() } });
        }
        await tx.repository.update({ where: { id }, data: { topics: next } });
      });
    },
    async searchTopics(keyword, offset, limit) {
      const pattern = `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      const rows = await db.$queryRaw<TopicRow[]>`
        SELECT t.id, t.name, t.created_at, t.updated_at, c.repo_count, count(*) OVER () AS total
        FROM topic t
        CROSS JOIN LATERAL (SELECT count(*) AS repo_count FROM repository r WHERE r.topics @> ARRAY[t.name]) c
        WHERE t.name LIKE ${pattern} AND c.repo_count > 0
        ORDER BY c.repo_count DESC, t.name
        OFFSET ${offset} LIMIT ${limit}`;
      return { items: rows.map(toTopic), total: rows.length ? Number(rows[0]!.total) : 0 };
    },
  };
}
