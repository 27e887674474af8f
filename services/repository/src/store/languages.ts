// Cached language statistics (table `language_stats`, keyed by repository id + commit sha)
// and the repository's top language (`repository.language`), written together.
import type { LanguageStatsStore } from '../domain/language-stats.js';
import type { RepositoryDb } from './db.js';

// The statistics of a commit never change (its files and .gitattributes are fixed), and
// repository ids are never reused: each process remembers the ones it read or wrote, so a
// GET /languages on a warm default branch asks PostgreSQL nothing beyond its refs.
const REMEMBERED_MAX = 10_000;

export function languageStatsStore(db: RepositoryDb): LanguageStatsStore {
  const remembered = new Map<string, Map<string, number>>();
  const remember = (key: string, sizes: Map<string, number>) => {
    if (remembered.size >= REMEMBERED_MAX) remembered.clear();
    remembered.set(key, sizes);
  };
  return {
    async find(repositoryId, commitSha) {
      const key = `${repositoryId}:${commitSha}`;
      const known = remembered.get(key);
      if (known) return new Map(known);
      const row = await db.languageStats.findUnique({ where: { repository_id_commit_sha: { repository_id: BigInt(repositoryId), commit_sha: commitSha } } });
      if (!row) return undefined;
      const sizes = new Map(Object.entries(row.languages as Record<string, number>));
      remember(key, sizes);
      return new Map(sizes);
    },
    async save(repositoryId, commitSha, sizes, primary) {
      const id = BigInt(repositoryId);
      const languages = Object.fromEntries(sizes);
      await db.$transaction([
        // Only the latest computed commit is kept; two computations of one commit agree.
        db.languageStats.deleteMany({ where: { repository_id: id, commit_sha: { not: commitSha } } }),
        db.languageStats.upsert({
          where: { repository_id_commit_sha: { repository_id: id, commit_sha: commitSha } },
          create: { repository_id: id, commit_sha: commitSha, languages },
          update: { languages },
        }),
        db.repository.updateMany({ where: { id, language: { not: primary } }, data: { language: primary } }),
      ]);
      remember(`${repositoryId}:${commitSha}`, new Map(sizes));
    },
  };
}
