// Cached language statistics (table `language_stats`, keyed by repository id + commit sha)
// and the repository's top language (`repository.language`), written together.
import type { LanguageStatsStore } from '../domain/language-stats.js';
import type { RepositoryDb } from './db.js';

export function languageStatsStore(db: RepositoryDb): LanguageStatsStore {
  return {
    async find(repositoryId, commitSha) {
      const row = await db.languageStats.findUnique({ where: { repository_id_commit_sha: { repository_id: BigInt(repositoryId), commit_sha: commitSha } } });
      if (!row) return undefined;
      return new Map(Object.entries(row.languages as Record<string, number>));
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
    },
  };
}
