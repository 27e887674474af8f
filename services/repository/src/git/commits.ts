// Commits read from a bare repository: rev-list picks and counts them, `cat-file --batch`
// reads the raw objects (so a signature's payload is byte-exact), `git show` gives files and
// line stats for a whole page in one process, `git diff`/`format-patch` the text of one commit.
// Every value from a caller reached here as a validated object id.
import type { CommitFile, CommitRange, CommitStats, RawCommit, RawSignature } from '../domain/commits.js';
import { git, GitError, isObjectId, isZeroId, runGit, runGitBytes, spawnGit, type GitCommand } from './command.js';
import type { ObjectEnv } from './branches.js';
import { firstUnverified, type SignatureVerifier } from '../domain/commit-verification.js';

export type { CommitFile, CommitRange, CommitStats, RawCommit, RawSignature };

function withObjects(cmd: ReturnType<typeof git>, env: ObjectEnv): ReturnType<typeof git> {
  if (env.GIT_OBJECT_DIRECTORY) cmd.env('GIT_OBJECT_DIRECTORY', env.GIT_OBJECT_DIRECTORY);
  if (env.GIT_ALTERNATE_OBJECT_DIRECTORIES) cmd.env('GIT_ALTERNATE_OBJECT_DIRECTORIES', env.GIT_ALTERNATE_OBJECT_DIRECTORIES);
  return cmd;
}

/** The rev-list arguments of a range: start, `--not` exclusions, dates, `-- path`. */
function rangeArgs(cmd: ReturnType<typeof git>, range: CommitRange): ReturnType<typeof git> {
  if (range.since !== undefined) cmd.flag(`--since=${Math.floor(range.since)}`);
  if (range.until !== undefined) cmd.flag(`--until=${Math.floor(range.until)}`);
  cmd.oid(range.start);
  if (range.exclude?.length || range.excludeAll) {
    cmd.flag('--not');
    for (const oid of range.exclude ?? []) cmd.oid(oid);
    if (range.excludeAll) cmd.flag('--all');
  }
  // A user's path, read literally (GIT_LITERAL_PATHSPECS: no pathspec magic), as every other read does.
  if (range.path) cmd.env('GIT_LITERAL_PATHSPECS', '1').paths(range.path);
  return cmd;
}

/** How many commits the range holds. */
export async function countCommits(gitDir: string, range: CommitRange): Promise<number> {
  const out = await runGit(rangeArgs(git('rev-list', { gitDir }).flag('--count'), range).build());
  return Number(out.trim()) || 0;
}

/** The ids of one page of the range, newest first (git's default order, as Gitea's). */
export async function commitIds(gitDir: string, range: CommitRange, skip: number, limit: number, env: ObjectEnv = {}): Promise<string[]> {
  const cmd = git('rev-list', { gitDir }).flag(`--max-count=${Math.max(0, Math.floor(limit))}`, `--skip=${Math.max(0, Math.floor(skip))}`);
  const out = await runGit(withObjects(rangeArgs(cmd, range), env).build());
  return out.split('\n').filter(isObjectId);
}

/** Splits a commit person line (`Name <email> 1700000000 +0200`). */
function person(value: string): { name: string; email: string; date: string } {
  const match = /^(.*?) ?<([^>]*)> (\d+) ([+-])(\d\d)(\d\d)$/.exec(value);
  if (!match) return { name: value, email: '', date: '1970-01-01T00:00:00Z' };
  const [, name, email, seconds, sign, hh, mm] = match;
  const offsetMinutes = (sign === '-' ? -1 : 1) * (Number(hh) * 60 + Number(mm));
  const local = new Date((Number(seconds) + offsetMinutes * 60) * 1000).toISOString().replace(/\.\d{3}Z$/, '');
  return { name, email, date: offsetMinutes === 0 ? `${local}Z` : `${local}${sign}${hh}:${mm}` };
}

/** Parses a raw commit object; the payload is the object without its gpgsig header (what was signed). */
export function parseCommit(sha: string, raw: Buffer): RawCommit {
  const text = raw.toString('utf8');
  const end = text.indexOf('\n\n');
  const headerText = end >= 0 ? text.slice(0, end) : text;
  const message = end >= 0 ? text.slice(end + 2) : '';
  const commit: RawCommit = {
    sha, treeSha: '', parents: [], message,
    author: { name: '', email: '', date: '' }, committer: { name: '', email: '', date: '' },
  };
  // Headers may continue on lines starting with a space (gpgsig, mergetag).
  const headers: { key: string; value: string; raw: string }[] = [];
  for (const line of headerText.split('\n')) {
    const last = headers[headers.length - 1];
    if (line.startsWith(' ') && last) {
      last.value += `\n${line.slice(1)}`;
      last.raw += `\n${line}`;
      continue;
    }
    const space = line.indexOf(' ');
    headers.push({ key: space < 0 ? line : line.slice(0, space), value: space < 0 ? '' : line.slice(space + 1), raw: line });
  }
  for (const h of headers) {
    if (h.key === 'tree') commit.treeSha = h.value;
    else if (h.key === 'parent') commit.parents.push(h.value);
    else if (h.key === 'author') commit.author = person(h.value);
    else if (h.key === 'committer') commit.committer = person(h.value);
  }
  const signature = headers.find((h) => h.key === 'gpgsig' || h.key === 'gpgsig-sha256');
  if (signature) {
    const kept = headers.filter((h) => h !== signature).map((h) => h.raw).join('\n');
    const payload = Buffer.from(`${kept}\n\n${message}`, 'utf8');
    commit.signature = { signature: signature.value.endsWith('\n') ? signature.value : `${signature.value}\n`, payload };
  }
  return commit;
}

/** Reads the commits with these ids, in the order given; ids that are not commits are left out. */
export async function readCommits(gitDir: string, ids: readonly string[], env: ObjectEnv = {}): Promise<RawCommit[]> {
  const wanted = ids.filter(isObjectId);
  if (wanted.length === 0) return [];
  const out = await runGitBytes(withObjects(git('cat-file', { gitDir }).flag('--batch'), env).build(), { stdin: `${wanted.join('\n')}\n` });
  const commits: RawCommit[] = [];
  let at = 0;
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at);
    if (eol < 0) break;
    const [sha, type, size] = out.subarray(at, eol).toString('utf8').split(' ');
    at = eol + 1;
    if (type === undefined || size === undefined) continue; // "<id> missing"
    const length = Number(size);
    if (type === 'commit') commits.push(parseCommit(sha, out.subarray(at, at + length)));
    at += length + 1;
  }
  return commits;
}

/** `git show` over a page of commits: merges against their first parent, root commits against nothing. */
function showPage(gitDir: string, ids: readonly string[], format: string) {
  const cmd = git('show', { gitDir }).flag('-z', '--format=%x1e%H', format, '--no-renames', '--diff-merges=first-parent', '--root', '--no-color', '--no-ext-diff');
  for (const id of ids) cmd.oid(id);
  return runGit(cmd.build());
}

/** The files each commit adds, removes or modifies (Gitea's CommitAffectedFiles). */
export async function filesOf(gitDir: string, ids: readonly string[]): Promise<Map<string, CommitFile[]>> {
  const result = new Map<string, CommitFile[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return result;
  const out = await showPage(gitDir, ids, '--name-status');
  for (const record of out.split('\x1e').filter(Boolean)) {
    const [sha, ...fields] = record.split('\0');
    const files = result.get(sha.trim());
    if (!files) continue;
    const rest = fields.map((f) => f.replace(/^\n/, '')).filter((f) => f !== '');
    for (let i = 0; i + 1 < rest.length; i += 2) {
      const status = rest[i][0] === 'A' ? 'added' : rest[i][0] === 'D' ? 'removed' : 'modified';
      files.push({ filename: rest[i + 1], status });
    }
  }
  return result;
}

/** Lines added and deleted by each commit (binary files count none, as in Gitea's diff totals). */
export async function statsOf(gitDir: string, ids: readonly string[]): Promise<Map<string, CommitStats>> {
  const result = new Map<string, CommitStats>(ids.map((id) => [id, { additions: 0, deletions: 0 }]));
  if (ids.length === 0) return result;
  const out = await showPage(gitDir, ids, '--numstat');
  for (const record of out.split('\x1e').filter(Boolean)) {
    const [sha, ...fields] = record.split('\0');
    const stats = result.get(sha.trim());
    if (!stats) continue;
    for (const field of fields) {
      const match = /^\n?(\d+|-)\t(\d+|-)\t/.exec(field);
      if (!match) continue;
      stats.additions += Number(match[1]) || 0;
      stats.deletions += Number(match[2]) || 0;
    }
  }
  return result;
}

/**
 * Gitea's raw diff (modules/git GetRawDiff): `git diff -M <parent> <sha>` (`git show` for a
 * root commit) or `git format-patch --no-signature --stdout` of that one commit.
 */
export async function rawDiff(gitDir: string, sha: string, parent: string | undefined, type: 'diff' | 'patch'): Promise<string> {
  if (!isObjectId(sha) || (parent !== undefined && !isObjectId(parent))) throw new GitError([], null, 'not an object id');
  if (type === 'patch') {
    const cmd = git('format-patch', { gitDir }).flag('--no-signature', '--stdout', '--no-color');
    // `<oid>..<oid>` of two validated ids is never read as an option.
    if (parent) cmd.arg(`${parent}..${sha}`);
    else cmd.flag('--root', '-1').oid(sha);
    return runGit(cmd.build());
  }
  const cmd = parent
    ? git('diff', { gitDir }).flag('-M', '--no-color', '--no-ext-diff').oid(parent).oid(sha)
    : git('show', { gitDir }).flag('--no-color', '--no-ext-diff').oid(sha);
  return runGit(cmd.build());
}

/** Most new commits of one push whose signatures are checked. */
const MAX_PUSH_COMMITS = 100_000;

/**
 * The first commit new in `to` (not reachable from `from`, or from any existing ref when
 * `from` is all zeros) that is unsigned or whose signature identity does not verify against
 * the committer's keys; `env` points git at the push's quarantined objects.
 */
export async function firstUnverifiedCommit(gitDir: string, from: string, to: string, verifier: SignatureVerifier, env: ObjectEnv = {}): Promise<string | undefined> {
  if (!isObjectId(to) || (!isZeroId(from) && !isObjectId(from))) throw new GitError([], null, 'not an object id');
  const range: CommitRange = isZeroId(from) ? { start: to, excludeAll: true } : { start: to, exclude: [from] };
  const ids = await commitIds(gitDir, range, 0, MAX_PUSH_COMMITS, env);
  return firstUnverified(verifier, await readCommits(gitDir, ids, env));
}
