// The tag domain's TagGit port over RepositoryStorage and src/git/tags.ts.
import type { TagGit } from '../domain/tags.js';
import type { RepositoryStorage } from './storage.js';
import { resolveCommit } from './refs.js';
import type { RefIndex } from './ref-index.js';
import { createTag, deleteTag, findTag, isValidTagName, listTags, readTagObject, TagExists } from './tags.js';

/** Tags and resolution from the refs table when `refs` is given (ref-index.ts), else from git. */
export function tagGit(storage: RepositoryStorage, refs?: RefIndex): TagGit {
  return {
    gitDirOf: (owner, name) => storage.pathOf(owner, name),
    listTags: refs ? (gitDir) => refs.tags(gitDir) : listTags,
    findTag: refs ? (gitDir, name) => refs.findTag(gitDir, name) : findTag,
    resolveCommit: refs ? (gitDir, revision) => refs.resolveCommit(gitDir, revision) : resolveCommit,
    deleteTag, readTagObject, isValidTagName,
    readCommits: (gitDir, ids) => storage.objects(gitDir).commits(ids),
    createTag: (gitDir, name, commit, message, tagger) => createTag(gitDir, name, commit, message, tagger),
    isTagExists: (err) => err instanceof TagExists,
  };
}
