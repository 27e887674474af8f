// The domain's RepoFiles port (domain/contents.ts) over a bare repository: reads from
// contents-git.ts, the commit from file-changes-git.ts, ref moves from branches.ts.
import type { RepoFiles } from '../domain/contents.js';
import { pushGitFacts } from './branch-git.js';
import { updateRef } from './branches.js';
import { entriesAt, lastCommitOf, lastCommitsOfEntries, listTree, resolveRevision, submoduleUrl } from './contents-git.js';
import { readBlob } from './objects-git.js';
import { writeCommit } from './file-changes-git.js';
import { directorySize, setHead, type RepositoryStorage } from './storage.js';

export function repoFiles(gitDir: string): RepoFiles {
  return {
    resolve: (revision) => resolveRevision(gitDir, revision),
    entries: (treeish, paths) => entriesAt(gitDir, treeish, paths),
    list: (treeish, prefix) => listTree(gitDir, treeish, prefix),
    readBlob: (sha) => readBlob(gitDir, sha),
    lastCommit: (commit, path) => lastCommitOf(gitDir, commit, path),
    lastCommits: (commit, dir, names) => lastCommitsOfEntries(gitDir, commit, dir, names),
    submoduleUrl: (commit, path) => submoduleUrl(gitDir, commit, path),
    writeCommit: (input) => writeCommit(gitDir, input),
    updateRef: (ref, newSha, oldSha) => updateRef(gitDir, ref, newSha, oldSha),
    facts: () => pushGitFacts(gitDir),
    setDefaultBranch: (branch) => setHead(gitDir, branch),
    size: () => directorySize(gitDir),
  };
}

export function contentFiles(storage: RepositoryStorage): (owner: string, name: string) => RepoFiles {
  return (owner, name) => repoFiles(storage.pathOf(owner, name));
}
