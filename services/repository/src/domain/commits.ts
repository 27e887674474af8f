// Commit use cases (Gitea's routers/api/v1/repo/commits.go and compare.go): list with
// filters and paging, one commit by sha or ref, its diff or patch, and a comparison. Reading
// the gateway's route table requires read permission (`repoAccess: 'read'`). The people named in
// a page of commits and the page's signatures are resolved through identity in one batch each.
import { DomainError, invalid, notFound } from '@anvil/kit';
import { isValidRefName as isSafeRef } from '@anvil/kit';
import type { RepositoryAccess } from './repositories.js';
import type { RepositoryStore } from './store.js';
import { verifyCommits, type CommitVerification, type SignatureVerifier } from './commit-verification.js';

/** A signature line of a commit, its date in RFC 3339 with git's own offset. */
export interface CommitPerson {
  name: string;
  email: string;
  date: string;
}

export interface RawSignature {
  /** The armored signature (gpgsig header, unfolded). */
  signature: string;
  /** The commit object without its gpgsig header: the signed bytes. */
  payload: Buffer;
}

/** A commit as git stores it. */
export interface RawCommit {
  sha: string;
  treeSha: string;
  parents: string[];
  author: CommitPerson;
  committer: CommitPerson;
  message: string;
  signature?: RawSignature;
}

export interface CommitFile {
  filename: string;
  status: 'added' | 'removed' | 'modified';
}

export interface CommitStats {
  additions: number;
  deletions: number;
}

/** What rev-list walks: from `start`, not reachable from `exclude`, optionally one path and dates (unix seconds). */
export interface CommitRange {
  start: string;
  exclude?: string[];
  /** Not reachable from any existing ref (a push's new commits on a new branch). */
  excludeAll?: boolean;
  path?: string;
  since?: number;
  until?: number;
}

/** The git side of commits (src/git/commits.ts), addressed by the repository's git directory. */
export interface CommitGit {
  gitDirOf(owner: string, name: string): string;
  resolveRevision(gitDir: string, revision: string): Promise<string | undefined>;
  countCommits(gitDir: string, range: CommitRange): Promise<number>;
  commitIds(gitDir: string, range: CommitRange, skip: number, limit: number): Promise<string[]>;
  readCommits(gitDir: string, ids: readonly string[]): Promise<RawCommit[]>;
  filesOf(gitDir: string, ids: readonly string[]): Promise<Map<string, CommitFile[]>>;
  statsOf(gitDir: string, ids: readonly string[]): Promise<Map<string, CommitStats>>;
  rawDiff(gitDir: string, sha: string, parent: string | undefined, type: 'diff' | 'patch'): Promise<string>;
}

/** Identity's user as identity sent it: the domain passes it through to the reply unread. */
export interface IdentityUser {
  readonly id: number;
}

/** Who owns e-mail addresses (identity's GetUsersByEmails): keyed by lower-cased address. */
export interface CommitPeople {
  usersByEmails(emails: readonly string[]): Promise<Map<string, IdentityUser>>;
}

export interface CommitDeps {
  store: RepositoryStore;
  git: CommitGit;
  people: CommitPeople;
  signatures: SignatureVerifier;
}

export interface CommitDetails {
  stat: boolean;
  verification: boolean;
  files: boolean;
}

/** A commit with what the API shows about it. */
export interface DetailedCommit extends RawCommit {
  authorUser?: IdentityUser;
  committerUser?: IdentityUser;
  verification?: CommitVerification;
  files?: CommitFile[];
  stats?: CommitStats;
}

export interface RepositoryName {
  owner: string;
  name: string;
}

const nameOf = (access: RepositoryAccess): RepositoryName => ({ owner: access.owner.login, name: access.repository.name });

/** Gitea's ctx.NotFound: one message for every missing commit or ref. */
export const commitNotFound = () => notFound('The target couldn\'t be found.', 'commit_not_found');

function open(deps: CommitDeps, access: RepositoryAccess) {
  return { access, gitDir: deps.git.gitDirOf(access.owner.login, access.repository.name) };
}

/** A caller's revision (branch, tag, sha): anything git could misread or cannot find is not found. */
async function resolve(deps: CommitDeps, gitDir: string, revision: string): Promise<string> {
  const sha = isSafeRef(revision) ? await deps.git.resolveRevision(gitDir, revision) : undefined;
  if (!sha) throw commitNotFound();
  return sha;
}

/** Adds users, verification, files and stats to commits: one identity call per kind, one git run per kind. */
export async function describeCommits(deps: CommitDeps, gitDir: string, commits: RawCommit[], details: CommitDetails): Promise<DetailedCommit[]> {
  const ids = commits.map((c) => c.sha);
  const emails = [...new Set(commits.flatMap((c) => [c.author.email, c.committer.email]).filter(Boolean))];
  const [users, verifications, files, stats] = await Promise.all([
    emails.length ? deps.people.usersByEmails(emails) : new Map<string, IdentityUser>(),
    details.verification ? verifyCommits(deps.signatures, commits) : undefined,
    details.files ? deps.git.filesOf(gitDir, ids) : undefined,
    details.stat ? deps.git.statsOf(gitDir, ids) : undefined,
  ]);
  return commits.map((c, i) => ({
    ...c,
    authorUser: users.get(c.author.email.toLowerCase()),
    committerUser: users.get(c.committer.email.toLowerCase()),
    verification: verifications?.[i],
    files: files?.get(c.sha) ?? (details.files ? [] : undefined),
    stats: stats?.get(c.sha) ?? (details.stat ? { additions: 0, deletions: 0 } : undefined),
  }));
}

export interface ListCommitsInput {
  sha: string;
  path: string;
  not: string;
  since: string;
  until: string;
  page: number;
  limit: number;
  details: CommitDetails;
  summaryOnly: boolean;
}

/** Gitea's [git] COMMITS_RANGE_SIZE default: the most commits one page shows. */
export const COMMITS_RANGE_SIZE = 50;

function unixSeconds(value: string, name: string): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  // Gitea parses since/until as RFC 3339 and answers 422 otherwise.
  if (!/^\d{4}-\d\d-\d\dT/.test(value) || Number.isNaN(ms)) throw invalid(`invalid ${name}: ${value} is not an RFC 3339 time`, 'invalid_time');
  return ms / 1000;
}

/** The first line of a message (Anvil's spec: list entries carry the summary). */
export function summaryOf(message: string): string {
  const newline = message.indexOf('\n');
  return newline < 0 ? message : message.slice(0, newline);
}

/** A relative path whose `..` segments never climb above the repository's root, without NUL. */
export function isPathInRepository(path: string): boolean {
  if (path.startsWith('/') || path.includes('\0')) return false;
  let depth = 0;
  for (const segment of path.split('/')) {
    if (segment === '..') depth--;
    else if (segment && segment !== '.') depth++;
    if (depth < 0) return false;
  }
  return true;
}

export async function listCommits(deps: CommitDeps, access: RepositoryAccess, input: ListCommitsInput): Promise<{ commits: DetailedCommit[]; total: number; limit: number; repository: RepositoryName }> {
  const { gitDir } = open(deps, access);
  if (access.repository.empty) throw new DomainError('conflict', 'Git Repository is empty.', 'repo_empty');
  const since = unixSeconds(input.since, 'since');
  const until = unixSeconds(input.until, 'until');
  const page = Math.max(input.page || 1, 1);
  const limit = Math.min(Math.max(input.limit || 30, 1), COMMITS_RANGE_SIZE);
  // A path that cannot be inside the repository (absolute, climbing out with `..`) is one no
  // commit touches: git would refuse it as outside the repository.
  if (input.path && !isPathInRepository(input.path)) throw commitNotFound();
  const start = await resolve(deps, gitDir, input.sha || access.repository.default_branch);
  const range: CommitRange = { start, since, until, path: input.path || undefined, exclude: input.not ? [await resolve(deps, gitDir, input.not)] : undefined };
  const [total, ids] = await Promise.all([
    deps.git.countCommits(gitDir, range),
    deps.git.commitIds(gitDir, range, (page - 1) * limit, limit),
  ]);
  // Gitea: a path no commit touches is not found.
  if (range.path && total === 0) throw commitNotFound();
  const raw = await deps.git.readCommits(gitDir, ids);
  const commits = await describeCommits(deps, gitDir, raw, input.details);
  if (input.summaryOnly) for (const c of commits) c.message = summaryOf(c.message);
  return { commits, total, limit, repository: nameOf(access) };
}

export async function getCommit(deps: CommitDeps, access: RepositoryAccess, sha: string, details: CommitDetails): Promise<{ commit: DetailedCommit; repository: RepositoryName }> {
  // Gitea validates the ref pattern before looking: 422 for what can never name a commit.
  if (!isSafeRef(sha)) throw invalid(`no valid ref or sha: ${sha}`, 'invalid_ref');
  const { gitDir } = open(deps, access);
  const id = await resolve(deps, gitDir, sha);
  const [raw] = await deps.git.readCommits(gitDir, [id]);
  if (!raw) throw commitNotFound();
  const [commit] = await describeCommits(deps, gitDir, [raw], details);
  return { commit, repository: nameOf(access) };
}

export async function commitDiff(deps: CommitDeps, access: RepositoryAccess, sha: string, type: string): Promise<string> {
  if (type !== 'diff' && type !== 'patch') throw commitNotFound();
  const { gitDir } = open(deps, access);
  const id = await resolve(deps, gitDir, sha);
  const [raw] = await deps.git.readCommits(gitDir, [id]);
  if (!raw) throw commitNotFound();
  return deps.git.rawDiff(gitDir, id, raw.parents[0], type);
}

/** Most commits a comparison lists (Gitea lists them all; this bounds one reply). */
export const MAX_COMPARE_COMMITS = 1000;

export async function compareCommits(deps: CommitDeps, access: RepositoryAccess, base: string, head: string, details: CommitDetails): Promise<{ commits: DetailedCommit[]; repository: RepositoryName }> {
  const { gitDir } = open(deps, access);
  if (access.repository.empty) throw commitNotFound();
  const [baseSha, headSha] = await Promise.all([
    resolve(deps, gitDir, base || access.repository.default_branch),
    resolve(deps, gitDir, head || access.repository.default_branch),
  ]);
  // base...head lists merge-base..head, base..head lists base..head: the same commits.
  const ids = await deps.git.commitIds(gitDir, { start: headSha, exclude: [baseSha] }, 0, MAX_COMPARE_COMMITS);
  const raw = await deps.git.readCommits(gitDir, ids);
  return { commits: await describeCommits(deps, gitDir, raw, details), repository: nameOf(access) };
}
