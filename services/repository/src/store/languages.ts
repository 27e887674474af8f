// Cached language statistics (table `language_stats`, keyed by repository id + commit sha)
// and the repository's top language (`repository.language`), written together.
import type { LanguageStatsStore } from '../domain/language-stats.js';
import { queryRows, type RepositoryDb } from './db.js';
import { Prisma } from './generated/client.js';

// The statistics of a commit never change (its files and .gitattributes are fixed), and
// repository ids are never reused: each process remembers the ones it read or wrote, so a
// GET /languages on a warm default branch asks PostgreSQL nothing beyond its refs. It also
// remembers which it computed as a plain sum over files (`additive`), which a row does not
// say: the next push's sizes follow from those (domain/language-stats.ts).
const REMEMBERED_MAX = 10_000;

interface Remembered {
  sizes: Map<string, number>;
  additive: boolean;
}

const keyOf = (repositoryId: number, commitSha: string) => `${repositoryId}:${commitSha}`;

export function languageStatsStore(db: RepositoryDb): LanguageStatsStore {
  const remembered = new Map<string, Remembered>();
  const remember = (key: string, entry: Remembered) => {
    if (remembered.size >= REMEMBERED_MAX) remembered.clear();
    remembered.set(key, entry);
  };
  return {
    knows: (repositoryId, commitSha) => remembered.has(keyOf(repositoryId, commitSha)),
    additive(repositoryId, commitSha) {
      const known = remembered.get(keyOf(repositoryId, commitSha));
      return known?.additive ? new Map(known.sizes) : undefined;
    },
    async find(repositoryId, commitSha) {
      const key = keyOf(repositoryId, commitSha);
      const known = remembered.get(key);
      if (known) return new Map(known.sizes);
      const [row] = await queryRows<{ languages: Record<string, number> }>(db, Prisma.sql`
        SELECT languages FROM language_stats WHERE repository_id = ${BigInt(repositoryId)} AND commit_sha = ${commitSha}`, 'find-language-stats');
      if (!row) return undefined;
      const sizes = new Map(Object.entries(row.languages as Record<string, number>));
      remember(key, { sizes, additive: false });
      return new Map(sizes);
    },
    async save(repositoryId, commitSha, sizes, primary, additive) {
      const id = BigInt(repositoryId);
      const languages = Object.fromEntries(sizes);
      // Every push to a default branch saves once, in one statement: only the latest computed
      // commit is kept (two computations of one commit agree), and the top language is
      // written only when it changed. The three parts touch different rows.
      await queryRows(db, Prisma.sql`
        WITH dropped AS (DELETE FROM language_stats WHERE repository_id = ${id} AND commit_sha <> ${commitSha}),
             top AS (UPDATE repository SET language = ${primary}, updated_at = now() WHERE id = ${id} AND language <> ${primary})
        INSERT INTO language_stats (repository_id, commit_sha, languages) VALUES (${id}, ${commitSha}, ${JSON.stringify(languages)}::jsonb)
        ON CONFLICT (repository_id, commit_sha) DO UPDATE SET languages = EXCLUDED.languages`, 'save-language-stats');
      remember(keyOf(repositoryId, commitSha), { sizes: new Map(sizes), additive });
    },
  };
}
