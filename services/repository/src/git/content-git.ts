// The domain's RepoFiles port (domain/contents.ts) over a bare repository: reads from
// contents-git.ts, the commit from file-changes-git.ts, ref moves from ref-updater.ts.
import type { RepoFiles } from '../domain/contents.js';
import { pushGitFacts } from './branch-git.js';
import { lastCommitsOfEntries, resolveRevision, submoduleUrl } from './contents-git.js';
import { lastCommitWalker } from './last-commit.js';
import { writeCommit } from './file-changes-git.js';
import { plainSignature } from '../domain/commit-writing.js';
import { GitError } from './command.js';
import type { RepositoryObjects } from './repository-objects.js';
import { headRow, type RefIndex } from './ref-index.js';
import type { RefUpdaters } from './ref-updater.js';
import type { ImmutableCache } from './immutable-cache.js';
import { directorySize, setHead, type RepositoryStorage } from './storage.js';

/** Reads of objects go through the cat-file cache (`objects`); revisions are resolved apart. */
export function repoFiles(gitDir: string, objects: RepositoryObjects, computed: ImmutableCache, updaters: RefUpdaters, refs?: RefIndex): RepoFiles {
  const readBlob = async (sha: string) => {
    const bytes = await objects.blob(sha);
    if (!bytes) throw new GitError(['cat-file'], null, `no blob ${sha}`);
    return bytes;
  };
  // What the write being made stored, remembered once its ref moved (headMoved): a write
  // that lost the race leaves its objects unreferenced, and they are not remembered.
  let stored: Array<[type: string, oid: string, content: Buffer]> = [];
  return {
    resolve: (revision) => (refs ? refs.resolveRevision(gitDir, revision) : resolveRevision(gitDir, revision)),
    resolveAtTurnStart: (revision) => (refs ? refs.resolveRevision(gitDir, revision, true) : resolveRevision(gitDir, revision)),
    rulesAtTurnStart: async () => refs?.rulesAtTurnStart(gitDir),
    entries: (treeish, paths) => objects.entriesAt(treeish, paths),
    list: (treeish, prefix) => objects.list(treeish, prefix),
    readBlob,
    // Keyed by the commit id: the answer never changes (immutable-cache.ts); walked from the
    // parent's answer rather than asked of a `git log` process (last-commit.ts).
    lastCommit: lastCommitWalker(gitDir, objects, computed),
    lastCommits: (commit, dir, names) => computed.get(gitDir, `last-entries:${commit}:${dir}:${names.length}:${names.join('\0')}`, () => lastCommitsOfEntries(gitDir, commit, dir, names)),
    submoduleUrl: (commit, path) => submoduleUrl(objects, commit, path),
    writeCommit: (input) => {
      stored = [];
      return writeCommit(gitDir, input, (oid) => objects.object(oid), (type, oid, content) => stored.push([type, oid, content]));
    },
    updateRef: (ref, newSha, oldSha) => updaters.update(gitDir, [{ ref, newSha, oldSha }]),
    headMoved: (ref, commit) => {
      // The objects the commit stored are remembered, so the next write on this branch and
      // the reads of the new head find its commit and trees without asking git.
      for (const [type, oid, content] of stored) objects.remember(type, oid, content);
      stored = [];
      // A commit git wrote (an identity it cleans up) is read back by the turn's full rewrite.
      if (plainSignature(commit.author) && plainSignature(commit.committer)) refs?.noteMove(gitDir, headRow(ref, commit));
    },
    facts: () => pushGitFacts(gitDir),
    setDefaultBranch: (branch) => setHead(gitDir, branch),
    size: () => directorySize(gitDir),
  };
}

export function contentFiles(storage: RepositoryStorage, refs?: RefIndex): (owner: string, name: string) => RepoFiles {
  return (owner, name) => {
    const gitDir = storage.pathOf(owner, name);
    return repoFiles(gitDir, storage.objects(gitDir), storage.computed, storage.refUpdaters, refs);
  };
}
