// GET /repos/{o}/{r}/languages: bytes per language of the default branch's head commit,
// computed once per commit and cached; computing also records the repository's top
// language (the Repository JSON's `language`).
//
// After a push, a commit's sizes follow from its parent's and the files the push changed
// (languageSizesAfter) when this process computed the parent's as a plain sum over files:
// the cost follows the change, not the tree, which a push to a large repository used to
// list in full.
import { isAttributesPath, languageSizesAfter, primaryLanguage, tallyLanguages, type LanguageSizes, type LanguageTable, type LinguistAttributes, type TreeFile } from './languages.js';
import type { RepositoryAccess } from './repositories.js';
import type { RepositoryStore } from './store.js';
import { isZeroId } from '@anvil/kit';

export interface LanguageStatsStore {
  find(repositoryId: number, commitSha: string): Promise<LanguageSizes | undefined>;
  /** Whether this process read or wrote the commit's sizes (no database asked). */
  knows(repositoryId: number, commitSha: string): boolean;
  /**
   * The commit's sizes if this process saved them as a plain sum over its files (`additive`
   * in save: no .gitattributes in the tree, no fallback language), so a child's may be
   * computed from them and its changes (no database asked).
   */
  additive(repositoryId: number, commitSha: string): LanguageSizes | undefined;
  save(repositoryId: number, commitSha: string, sizes: LanguageSizes, primary: string, additive: boolean): Promise<void>;
}

/** The git side (src/git/languages.ts), addressed by the repository's git directory. */
export interface LanguageGit {
  gitDirOf(owner: string, name: string): string;
  resolveCommit(gitDir: string, revision: string): Promise<string | undefined>;
  listTreeFiles(gitDir: string, commit: string): Promise<TreeFile[]>;
  linguistAttributes(gitDir: string, commit: string, paths: readonly string[]): Promise<Map<string, LinguistAttributes>>;
  /** The regular files `from` had and `to` has not, with their sizes, and the reverse (a modified file is in both). */
  changedFiles(gitDir: string, from: string, to: string): Promise<{ removed: TreeFile[]; added: TreeFile[] }>;
}

export interface LanguageDeps {
  store: RepositoryStore;
  stats: LanguageStatsStore;
  git: LanguageGit;
  table: LanguageTable;
}

/** The cached sizes of `commit`, computed and stored (with the top language) on a miss. */
async function sizesOf(deps: LanguageDeps, repositoryId: number, gitDir: string, commit: string): Promise<LanguageSizes> {
  return (await deps.stats.find(repositoryId, commit)) ?? computed(deps, repositoryId, gitDir, commit);
}

/** The sizes of `commit` computed from its tree, and stored with the top language. */
async function computed(deps: LanguageDeps, repositoryId: number, gitDir: string, commit: string): Promise<LanguageSizes> {
  const files = await deps.git.listTreeFiles(gitDir, commit);
  const attributes = await deps.git.linguistAttributes(gitDir, commit, files.map((f) => f.path));
  const { sizes, fallback } = tallyLanguages(files, attributes, deps.table);
  const additive = !fallback && !files.some((f) => isAttributesPath(f.path));
  await deps.stats.save(repositoryId, commit, sizes, primaryLanguage(sizes), additive);
  return sizes;
}

/** The sizes of `commit` from its parent's, when this process knows those as a plain sum; undefined otherwise. */
async function followed(deps: LanguageDeps, repositoryId: number, gitDir: string, parent: string, commit: string): Promise<LanguageSizes | undefined> {
  const base = deps.stats.additive(repositoryId, parent);
  if (!base) return undefined;
  // The previous head may be gone (a force push, then a gc): the whole tree is counted then,
  // and any failure that is not about the parent shows there.
  const changes = await deps.git.changedFiles(gitDir, parent, commit).catch(() => undefined);
  if (!changes) return undefined;
  const sizes = languageSizesAfter(base, changes.removed, changes.added, deps.table);
  if (sizes) await deps.stats.save(repositoryId, commit, sizes, primaryLanguage(sizes), true);
  return sizes;
}

/** Largest first, then by name. */
export async function getLanguages(deps: LanguageDeps, access: RepositoryAccess): Promise<Array<[string, number]>> {
  const repo = access.repository;
  if (repo.empty) return [];
  const gitDir = deps.git.gitDirOf(access.owner.login, repo.name);
  const commit = await deps.git.resolveCommit(gitDir, `refs/heads/${repo.default_branch}`);
  if (!commit) return [];
  const sizes = await sizesOf(deps, repo.id, gitDir, commit);
  return [...sizes].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
}

/**
 * After a push to the default branch (from `before`, all zeros or undefined for a new
 * branch): computes its languages now, so the repository's `language` is current without
 * anyone asking /languages first (Gitea's stats queue).
 */
export async function refreshLanguages(deps: LanguageDeps, repository: { id: number; ownerLogin: string; name: string }, commit: string, before?: string): Promise<void> {
  // A pushed commit is new: no row holds its sizes yet, unless this process just answered a
  // /languages for it. So no statement asks first; a redelivered push computes them again.
  if (deps.stats.knows(repository.id, commit)) return;
  const gitDir = deps.git.gitDirOf(repository.ownerLogin, repository.name);
  if (before && !isZeroId(before) && (await followed(deps, repository.id, gitDir, before, commit))) return;
  await computed(deps, repository.id, gitDir, commit);
}
