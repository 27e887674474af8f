// The commit domain's CommitGit port over RepositoryStorage and src/git/commits.ts. Every
// answer keyed by object ids is remembered (immutable-cache.ts): history pages and totals
// from a head, a commit's files and stats. A plain history (no path, dates or exclusions) is
// walked through the cat-file cache (history.ts); the rest asks rev-list once per distinct
// question. Only `--not --all` depends on the refs of the moment and is never remembered.
import type { CommitFile, CommitGit, CommitRange, CommitStats } from '../domain/commits.js';
import { commitIds, countCommits, filesOf, rawDiff, statsOf } from './commits.js';
import { isPlainRange, walkHistory } from './history.js';
import { resolveCommit as resolveRevision } from './refs.js';
import type { RepositoryStorage } from './storage.js';
import type { RefIndex } from './ref-index.js';

/** Per-commit answers: the ids not yet known are computed in one batch, then each is remembered. */
function perCommit<T>(storage: RepositoryStorage, kind: string, compute: (gitDir: string, ids: readonly string[]) => Promise<Map<string, T>>, empty: () => T) {
  return async (gitDir: string, ids: readonly string[]): Promise<Map<string, T>> => {
    const missing = ids.filter((id) => !storage.computed.has(gitDir, `${kind}:${id}`));
    const batch = missing.length ? compute(gitDir, missing) : undefined;
    const values = await Promise.all(ids.map((id) => storage.computed.get(gitDir, `${kind}:${id}`, async () => (await batch!).get(id) ?? empty())));
    return new Map(ids.map((id, i) => [id, values[i]]));
  };
}

export function commitGit(storage: RepositoryStorage, refs?: RefIndex): CommitGit {
  const history = (gitDir: string, head: string) => storage.computed.get(gitDir, `history:${head}`, () => walkHistory(storage.objects(gitDir), head));
  const key = (range: CommitRange) => JSON.stringify([range.start, range.exclude ?? [], range.path ?? '', range.since ?? '', range.until ?? '']);
  return {
    gitDirOf: (owner, name) => storage.pathOf(owner, name),
    resolveRevision: refs ? (gitDir, revision) => refs.resolveCommit(gitDir, revision) : resolveRevision,
    async countCommits(gitDir, range) {
      if (range.excludeAll) return countCommits(gitDir, range);
      if (isPlainRange(range)) {
        const walked = await history(gitDir, range.start);
        if (walked) return walked.length;
      }
      return storage.computed.get(gitDir, `count:${key(range)}`, () => countCommits(gitDir, range));
    },
    async commitIds(gitDir, range, skip, limit) {
      if (range.excludeAll) return commitIds(gitDir, range, skip, limit);
      if (isPlainRange(range)) {
        const walked = await history(gitDir, range.start);
        if (walked) return walked.slice(Math.max(0, skip), Math.max(0, skip) + Math.max(0, limit));
      }
      return storage.computed.get(gitDir, `ids:${key(range)}:${skip}:${limit}`, () => commitIds(gitDir, range, skip, limit));
    },
    filesOf: perCommit<CommitFile[]>(storage, 'files', filesOf, () => []),
    statsOf: perCommit<CommitStats>(storage, 'stats', statsOf, () => ({ additions: 0, deletions: 0 })),
    rawDiff,
    // Commits by id from the cat-file cache: no process per page.
    readCommits: (gitDir, ids) => storage.objects(gitDir).commits(ids),
  };
}
