// The last commit of a path at a commit (contents' `last_commit_sha`), walked over the cat-file
// cache instead of one `git log` process per answer. A commit whose entry at the path equals a
// parent's (TREESAME, in git's words) has that parent's answer, so the walk follows the first
// such parent and remembers every step under its commit id (immutable-cache.ts): after a write,
// the next read steps once from the new head to the answer already known for its parent. This
// is git's default history simplification, so the answer is `git log -1 <commit> -- <path>`'s:
// a commit that differs from every parent (or a root commit holding the path) is the answer.
// A walk longer than MAX_STEPS (an old file in a long history, on a cold cache) hands the rest
// to one `git log` from where it stopped, whose answer from there is the same.
import type { LastCommit } from '../domain/contents.js';
import type { RawCommit } from '../domain/commits.js';
import { lastCommitOf } from './contents-git.js';
import type { ImmutableCache } from './immutable-cache.js';
import type { RepositoryObjects } from './repository-objects.js';

const MAX_STEPS = 32;

export type LastCommitOfPath = (commit: string, path: string) => Promise<LastCommit | undefined>;

export function lastCommitWalker(gitDir: string, objects: RepositoryObjects, computed: ImmutableCache): LastCommitOfPath {
  /** The path's mode and object id in a tree, as TREESAME compares them; undefined when absent. */
  const entryAt = async (treeSha: string, parts: string[]): Promise<string | undefined> => {
    let sha = treeSha;
    let mode = '040000';
    for (const part of parts) {
      if (mode !== '040000') return undefined;
      const entry = (await objects.tree(sha))?.find((e) => e.name === part);
      if (!entry) return undefined;
      ({ sha, mode } = entry);
    }
    return `${mode} ${sha}`;
  };

  const walk = (commitSha: string, path: string, parts: string[], steps: number): Promise<LastCommit | undefined> =>
    computed.get(gitDir, `last:${commitSha}:${path}`, async () => {
      const askGit = () => lastCommitOf(gitDir, commitSha, path);
      if (steps >= MAX_STEPS) return askGit();
      const commit = await objects.commit(commitSha);
      if (!commit) return askGit();
      if (parts.length === 0) return described(commit);
      const own = await entryAt(commit.treeSha, parts);
      // A path the commit does not hold is asked of git as it was (deletions are its business).
      if (own === undefined) return askGit();
      for (const parentSha of commit.parents) {
        const parent = await objects.commit(parentSha);
        // A parent missing from the object store (a shallow mirror): git knows what to do.
        if (!parent) return askGit();
        if ((await entryAt(parent.treeSha, parts)) === own) return walk(parentSha, path, parts, steps + 1);
      }
      return described(commit);
    });

  return (commit, path) => walk(commit, path, path.split('/').filter(Boolean), 0);
}

function described(commit: RawCommit): LastCommit {
  return {
    sha: commit.sha,
    authorTime: Math.floor(Date.parse(commit.author.date) / 1000),
    committerTime: Math.floor(Date.parse(commit.committer.date) / 1000),
    message: commit.message,
  };
}
