// The language domain's LanguageGit port over RepositoryStorage and src/git/languages.ts.
import type { LanguageGit } from '../domain/language-stats.js';
import { linguistAttributes, listTreeFiles } from './languages.js';
import type { RepositoryStorage } from './storage.js';
import { resolveCommit } from './refs.js';

export function languageGit(storage: RepositoryStorage): LanguageGit {
  return { gitDirOf: (owner, name) => storage.pathOf(owner, name), resolveCommit, listTreeFiles, linguistAttributes };
}
