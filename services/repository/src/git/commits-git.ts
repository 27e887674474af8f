// The commit domain's CommitGit port over RepositoryStorage and src/git/commits.ts.
import type { CommitGit } from '../domain/commits.js';
import { commitIds, countCommits, filesOf, rawDiff, statsOf } from './commits.js';
import { resolveCommit as resolveRevision } from './refs.js';
import type { RepositoryStorage } from './storage.js';
import type { RefIndex } from './ref-index.js';

export function commitGit(storage: RepositoryStorage, refs?: RefIndex): CommitGit {
  return {
    gitDirOf: (owner, name) => storage.pathOf(owner, name),
    resolveRevision: refs ? (gitDir, revision) => refs.resolveCommit(gitDir, revision) : resolveRevision,
    countCommits, filesOf, statsOf, rawDiff,
    commitIds: (gitDir, range, skip, limit) => commitIds(gitDir, range, skip, limit),
    // Commits by id from the cat-file cache: no process per page.
    readCommits: (gitDir, ids) => storage.objects(gitDir).commits(ids),
  };
}
