// The tag domain's TagGit port over RepositoryStorage and src/git/tags.ts.
import type { TagGit } from '../domain/tags.js';
import type { RepositoryStorage } from './storage.js';
import { resolveCommit } from './refs.js';
import { createTag, deleteTag, findTag, isValidTagName, listTags, readTagObject, TagExists } from './tags.js';

export function tagGit(storage: RepositoryStorage): TagGit {
  return {
    gitDirOf: (owner, name) => storage.pathOf(owner, name),
    listTags, findTag, resolveCommit, deleteTag, readTagObject, isValidTagName,
    createTag: (gitDir, name, commit, message, tagger) => createTag(gitDir, name, commit, message, tagger),
    isTagExists: (err) => err instanceof TagExists,
  };
}
