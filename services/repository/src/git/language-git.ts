// The language domain's LanguageGit port over RepositoryStorage and src/git/languages.ts.
import type { LanguageGit } from '../domain/language-stats.js';
import { changedFilesThroughCache, linguistAttributes, listTreeFilesThroughCache } from './languages.js';
import type { RepositoryStorage } from './storage.js';
import { resolveCommit } from './refs.js';
import type { RefIndex } from './ref-index.js';

export function languageGit(storage: RepositoryStorage, refs?: RefIndex): LanguageGit {
  return {
    gitDirOf: (owner, name) => storage.pathOf(owner, name),
    resolveCommit: refs ? (gitDir, revision) => refs.resolveCommit(gitDir, revision) : resolveCommit,
    listTreeFiles: (gitDir, commit) => listTreeFilesThroughCache(storage.objects(gitDir), commit),
    linguistAttributes,
    changedFiles: (gitDir, from, to) => changedFilesThroughCache(storage.objects(gitDir), from, to),
  };
}
