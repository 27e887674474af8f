// What a pull request asks of git, read-only: the commits base and head name, their merge
// base, how far they diverge, whether they merge cleanly, what changed and the diff text.
// Pull requests themselves live in collaboration; these are narrow answers over one
// repository, resolved for the caller before they are asked (the gateway's route table asked
// for read access; grpc/requests.ts repositoryOf).
import { DomainError, notFound } from '@anvil/kit';
import type { RepositoryAccess } from './repositories.js';
import type { CommitParts, Signature } from './commit-writing.js';
import type { RawCommit } from './commits.js';
import type { PathChanges } from './push.js';
import type { BranchProtection } from './branch-protection.js';
import { cutDiffAroundLine } from './diff-hunk.js';

/** Two commits merged in memory: the merged tree (with conflict markers where `conflicts` is not empty). */
export interface TrialMerge {
  tree: string;
  conflicts: string[];
  /** The two share no history: git refused to merge them (no tree, no conflicts). */
  unrelated?: boolean;
}

/** One file changed between two commits (renames detected; line counts 0 for binary files). */
export interface FileChange {
  filename: string;
  status: 'added' | 'removed' | 'modified' | 'renamed';
  additions: number;
  deletions: number;
  previousFilename: string;
}

/** What a writer's turn starts from: the refs it asked for, and what was read with them. */
export interface TurnStart {
  refs: Map<string, string>;
  /** The branch rules and the user's teams, when the ref rows answered and they were asked for. */
  rules?: { protections: BranchProtection[]; teams: string[] };
}

/** The git operations pull requests need over one bare repository (git/pull-git-port.ts implements it). */
export interface PullGit {
  resolve(revision: string): Promise<string | undefined>;
  /** Full ref names → object ids in one git process; absent refs are left out. */
  resolveRefs(refs: readonly string[]): Promise<Map<string, string>>;
  /**
   * As resolveRefs, for a writer that has moved nothing yet in its turn: branches come from
   * the ref rows the previous turn wrote (one SQL statement, no git process). `rulesFor`: a
   * user whose teams in the owning organization, with the branch rules, the same statement reads.
   */
  resolveRefsAtTurnStart(refs: readonly string[], rulesFor?: number): Promise<TurnStart>;
  mergeBase(a: string, b: string): Promise<string | undefined>;
  isAncestor(a: string, b: string): Promise<boolean>;
  divergence(base: string, head: string): Promise<{ ahead: number; behind: number }>;
  trialMerge(ours: string, theirs: string): Promise<TrialMerge>;
  changedFiles(from: string, to: string): Promise<FileChange[]>;
  diff(from: string, to: string, type: 'diff' | 'patch'): Promise<string>;
  /** Oldest first. */
  commitsOnHead(base: string, head: string, options?: { noMerges?: boolean }): Promise<string[]>;
  readCommits(ids: readonly string[]): Promise<PullCommitInfo[]>;
  commitTree(parts: CommitParts): Promise<string>;
  cherryPick(commit: string, onto: string, committer: Signature): Promise<string | undefined>;
  treeOf(commit: string): Promise<string>;
  /** The paths `toTree` changes from `fromCommit`'s tree (diff-tree --name-status, no renames), read without a process. */
  pathChanges(fromCommit: string, toTree: string): Promise<PathChanges>;
  /** Compare-and-swap (all zeros: create / delete); throws when the ref moved meanwhile. */
  updateRef(ref: string, newSha: string, oldSha: string): Promise<void>;
  /** Points a ref no one else writes (refs/pull/<index>/head) at a commit. */
  setRef(ref: string, sha: string): Promise<void>;
  /** Several moves in one transaction (oldSha checked when given): all land or none; throws when one moved. */
  updateRefs(moves: ReadonlyArray<{ ref: string; newSha: string; oldSha?: string }>): Promise<void>;
}

export type PullCommitInfo = RawCommit;

export interface PullGitDeps {
  pullGit(owner: string, name: string): PullGit;
}

export interface PullRange {
  access: RepositoryAccess;
  git: PullGit;
  baseSha: string;
  headSha: string;
}

/** Branch names, full refs and commit ids; never anything git could read as an option. */
const isRevision = (value: string) => /^[A-Za-z0-9_][A-Za-z0-9_./-]*$/.test(value) && !value.includes('..') && value.length <= 255;

/** A branch name wins over a commit id prefix, as Gitea resolves a pull's base and head. */
export async function resolveSide(git: PullGit, revision: string, side: 'base' | 'head'): Promise<string> {
  const sha = isRevision(revision)
    ? (await git.resolve(revision.startsWith('refs/') ? revision : `refs/heads/${revision}`)) ?? (await git.resolve(revision))
    : undefined;
  if (!sha) throw notFound(`${side} does not exist [${side}: ${revision}]`, `${side}_not_found`);
  return sha;
}

/** The commits `base` and head name in `access`'s repository. */
export async function openRange(deps: PullGitDeps, access: RepositoryAccess, base: string, head: string): Promise<PullRange> {
  const repo = access.repository;
  if (repo.empty) throw notFound('Git Repository is empty.', 'repo_empty');
  const git = deps.pullGit(repo.owner_login, repo.name);
  const [baseSha, headSha] = await Promise.all([resolveSide(git, base, 'base'), resolveSide(git, head, 'head')]);
  return { access, git, baseSha, headSha };
}

export const noMergeBase = () => new DomainError('bad_request', 'the base and head have no common history', 'no_merge_base');

export async function requireMergeBase(range: PullRange): Promise<string> {
  const base = await range.git.mergeBase(range.baseSha, range.headSha);
  if (!base) throw noMergeBase();
  return base;
}

export async function getMergeBase(deps: PullGitDeps, access: RepositoryAccess, base: string, head: string) {
  const range = await openRange(deps, access, base, head);
  return { mergeBase: await requireMergeBase(range), baseSha: range.baseSha, headSha: range.headSha };
}

export async function countDiverging(deps: PullGitDeps, access: RepositoryAccess, base: string, head: string) {
  const range = await openRange(deps, access, base, head);
  return { ...(await range.git.divergence(range.baseSha, range.headSha)), baseSha: range.baseSha, headSha: range.headSha };
}

export async function checkMergeability(deps: PullGitDeps, access: RepositoryAccess, base: string, head: string) {
  const range = await openRange(deps, access, base, head);
  const mergeBase = await range.git.mergeBase(range.baseSha, range.headSha);
  if (!mergeBase) return { mergeable: false, conflictedFiles: [], baseSha: range.baseSha, headSha: range.headSha, mergeBase: '', treeSha: '' };
  const merged = await range.git.trialMerge(range.baseSha, range.headSha);
  return { mergeable: merged.conflicts.length === 0, conflictedFiles: merged.conflicts, baseSha: range.baseSha, headSha: range.headSha, mergeBase, treeSha: merged.tree };
}

/** Files changed from the merge base to head (Gitea's pull files view), one page, and totals over all. */
export async function diffStats(deps: PullGitDeps, access: RepositoryAccess, base: string, head: string, page: { offset: number; limit: number }) {
  const range = await openRange(deps, access, base, head);
  const mergeBase = await requireMergeBase(range);
  const files = await range.git.changedFiles(mergeBase, range.headSha);
  const additions = files.reduce((n, f) => n + f.additions, 0);
  const deletions = files.reduce((n, f) => n + f.deletions, 0);
  return { additions, deletions, changedFiles: files.length, files: files.slice(page.offset, page.offset + page.limit), mergeBase, headSha: range.headSha };
}

export async function listPullCommits(deps: PullGitDeps, access: RepositoryAccess, base: string, head: string, page: { offset: number; limit: number }) {
  const range = await openRange(deps, access, base, head);
  const ids = await range.git.commitsOnHead(range.baseSha, range.headSha);
  return { commits: await range.git.readCommits(ids.slice(page.offset, page.offset + page.limit)), total: ids.length };
}

export async function pullDiff(deps: PullGitDeps, access: RepositoryAccess, base: string, head: string, type: string): Promise<string> {
  const range = await openRange(deps, access, base, head);
  const mergeBase = await requireMergeBase(range);
  // A patch lists the head's own commits; a diff shows what the head changed since it forked.
  return type === 'patch' ? range.git.diff(range.baseSha, range.headSha, 'patch') : range.git.diff(mergeBase, range.headSha, 'diff');
}

/** The diff around each line a review comment names (diff-hunk.ts); "" where the diff does not show it. */
export async function diffHunks(deps: PullGitDeps, access: RepositoryAccess, base: string, head: string, lines: Array<{ path: string; line: number }>): Promise<string[]> {
  const range = await openRange(deps, access, base, head);
  const mergeBase = await requireMergeBase(range);
  const diff = lines.length ? await range.git.diff(mergeBase, range.headSha, 'diff') : '';
  return lines.map((l) => cutDiffAroundLine(diff, l.path, l.line));
}
