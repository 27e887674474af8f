// Keeps the licenses the Repository JSON reports current (Gitea detects them too): SPDX ids
// of the default branch's license files, read again after every change of a repository's
// refs, outside the change's transaction: reading twice gives the same answer, so a
// redelivered event does no harm. (`branch_count` is no git fact read here: the refs table
// rewrite counts it in the write turn that moved the refs, store/git-refs.ts.)
import type { LicenseDetector } from './licenses.js';
import type { RepositoryStore } from './store.js';
import { isZeroId } from '@anvil/kit';

export interface GitFactsReader {
  /** Root files of `branch` whose names are license file names, with their text. */
  licenseFiles(owner: string, name: string, branch: string): Promise<Array<{ name: string; text: string }>>;
  /** The root files of `commit` whose names are license file names, as `name sha` in name order (no text read). */
  licenseEntries(owner: string, name: string, commit: string): Promise<string[]>;
}

export interface GitFacts {
  licenses: string[];
}

export interface GitFactsStore {
  save(repositoryId: number, facts: GitFacts): Promise<void>;
  /**
   * Ids above `afterId` of repositories with git data but no branch counted yet, in id order:
   * those from before branch counts and licenses were kept.
   */
  idsWithoutFacts(afterId: number, limit: number): Promise<number[]>;
}

export interface GitFactsDeps {
  store: RepositoryStore;
  git: GitFactsReader;
  facts: GitFactsStore;
  detector: LicenseDetector;
}

/** Reads and stores the facts of repository `id`, as it is now (it may have been renamed or deleted since the event). */
export async function refreshGitFacts(deps: GitFactsDeps, id: number): Promise<GitFacts | undefined> {
  const found = await deps.store.findById(id);
  if (!found) return undefined;
  const { repository, owner } = found;
  // licenseFiles finds nothing in an empty repository (no default branch yet).
  const facts = { licenses: deps.detector.detect(await deps.git.licenseFiles(owner.login, repository.name, repository.default_branch)) };
  await deps.facts.save(id, facts);
  return facts;
}

/**
 * Whether a push moved a branch without touching the license files at its root (names and
 * contents alike): most pushes to a default branch, which then need no read and no write of
 * the facts. Compares the trees before and after, so a force push is judged as rightly as a
 * fast-forward. A failure to read either side says nothing: the facts are read again.
 */
export async function licensesUntouched(git: GitFactsReader, repository: { owner: string; name: string }, before: string, after: string): Promise<boolean> {
  if (isZeroId(before) || isZeroId(after)) return false;
  try {
    const [was, is] = await Promise.all([
      git.licenseEntries(repository.owner, repository.name, before),
      git.licenseEntries(repository.owner, repository.name, after),
    ]);
    return was.join('\n') === is.join('\n');
  } catch {
    return false;
  }
}

/**
 * Reads the facts of every repository that has git data but none recorded: those created
 * before the facts were kept. Runs once at start, in the
 * background, one repository at a time; each is visited once even if it has no branches.
 */
export async function backfillGitFacts(deps: GitFactsDeps, onError: (err: unknown, id: number) => void): Promise<number> {
  let after = 0;
  let refreshed = 0;
  for (;;) {
    const ids = await deps.facts.idsWithoutFacts(after, 100);
    if (!ids.length) return refreshed;
    for (const id of ids) {
      try {
        if (await refreshGitFacts(deps, id)) refreshed += 1;
      } catch (err) {
        onError(err, id);
      }
    }
    after = ids[ids.length - 1]!;
  }
}
