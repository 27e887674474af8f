// Changing files through the API (Gitea's services/repository/files/update.go
// ChangeRepoFiles): create, update, upload, rename and delete, any number of them in ONE
// commit on a branch or on a new branch made from it. The commit is written on a temporary
// index, checked by THE branch protection check (checkProtectedPush, with the changed files
// known up front), and lands with `update-ref <ref> <new> <old>`: a writer that lost the race
// gets a clean conflict (push out of date) and nothing is lost. Each write publishes `push`
// (and `branch.created` for a new branch) through the outbox, as a `git push` would.
import { DomainError, forbidden, invalid, notFound, type Caller } from '@anvil/kit';
import { checkProtectedPush, filePatterns, matchingPath, ruleFor, type BranchProtection } from './branch-protection.js';
import { isBranchName, pusherOf, recordRefMove } from './branches.js';
import { contentTypeOf, type ContentDeps, type ContentItem, type RepoFiles } from './contents.js';
import { atLeast } from './permission.js';
import type { RepositoryAccess } from './repositories.js';
import type { RepositoryEvent } from './store.js';
import type { TreeEntry } from './git-objects.js';
import type { IndexChange, Signature } from './commit-writing.js';
import { refuseMirrorWrites, type Repository } from './repository.js';

export type FileOperationKind = 'create' | 'update' | 'upload' | 'rename' | 'delete';

export interface FileOperation {
  operation: FileOperationKind;
  path: string;
  fromPath: string;
  content?: Buffer;
  sha: string;
}

export interface IdentityInput {
  name: string;
  email: string;
}

export interface ChangeFilesInput {
  branch: string;
  newBranch: string;
  message: string;
  author?: IdentityInput;
  committer?: IdentityInput;
  authorDate?: Date;
  committerDate?: Date;
  signoff: boolean;
  forcePush: boolean;
  files: FileOperation[];
}

export interface ChangedCommit {
  sha: string;
  treeSha: string;
  parents: string[];
  message: string;
  author: Signature;
  committer: Signature;
}

export interface ChangeFilesResult {
  branch: string;
  commit: ChangedCommit;
  /** One per operation, in request order; undefined where the path was deleted. */
  files: Array<ContentItem | undefined>;
}

const OPERATIONS = new Set<string>(['create', 'update', 'upload', 'rename', 'delete']);

/**
 * A path the API may write: relative, `/`-separated, no empty, `.` or `..` segment, no `.git`
 * component (any case), no NUL or other control character. Anything else is Gitea's 422.
 */
export function isWritablePath(path: string): boolean {
  if (!path || path.length > 4096 || /[\x00-\x1f\x7f]/.test(path)) return false;
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && part.toLowerCase() !== '.git');
}

const invalidPath = (path: string) => invalid(`path contains a malformed path component [path: ${path}]`, 'invalid_path');

/** Gitea's default commit message (routers/api/v1/repo/file.go changeFilesCommitMessage). */
export function defaultCommitMessage(files: readonly Pick<FileOperation, 'operation' | 'path'>[]): string {
  const pick = (ops: string[]) => files.filter((f) => ops.includes(f.operation)).map((f) => f.path).join(', ');
  const lines: string[] = [];
  const added = pick(['create']);
  const updated = pick(['update', 'upload', 'rename']);
  const deleted = pick(['delete']);
  if (added) lines.push(`Add ${added}`);
  if (updated) lines.push(`Update ${updated}`);
  if (deleted) lines.push(`Delete ${deleted}`);
  return lines.join('\n');
}

/** The commit message as Gitea writes it: trimmed, one trailing newline, sign-off by the committer. */
export function commitMessage(message: string, signoff: boolean, committer: IdentityInput): string {
  let text = `${message.trim()}\n`;
  if (signoff) text += `\nSigned-off-by: ${committer.name} <${committer.email}>\n`;
  return text;
}

/** Author and committer: each given one fills the other; neither → the caller. */
export function identities(input: Pick<ChangeFilesInput, 'author' | 'committer'>, doer: IdentityInput): { author: IdentityInput; committer: IdentityInput } {
  const given = (i?: IdentityInput) => (i && (i.name || i.email) ? { name: i.name || doer.name, email: i.email || doer.email } : undefined);
  const author = given(input.author);
  const committer = given(input.committer);
  return { author: author ?? committer ?? doer, committer: committer ?? author ?? doer };
}

interface PlannedFile {
  op: FileOperation;
  /** Mode of the written path (an existing file's executable bit is kept). */
  mode: string;
  /** For a rename without new content: the blob it carries over. */
  from?: TreeEntry;
}

/**
 * Gitea's handleCheckErrors against the branch head: the source must exist and match `sha`,
 * and the target must not collide with a file, symlink or directory on its way.
 */
function planFile(op: FileOperation, entries: Map<string, TreeEntry>): PlannedFile {
  let from: TreeEntry | undefined;
  let mode = '100644';
  if (op.operation !== 'create') {
    from = entries.get(op.fromPath);
    if (from?.type === 'tree') from = undefined;
    if (!from && op.operation !== 'upload') throw notFound(`object does not exist [id: , rel_path: ${op.fromPath}]`, 'file_not_found');
    if (from) {
      if (!op.sha) throw invalid('a SHA or commit ID must be proved when updating a file', 'sha_required');
      if (op.sha !== from.sha) throw invalid(`sha does not match [given: ${op.sha}, expected: ${from.sha}]`, 'sha_mismatch');
      mode = from.mode === '100755' ? '100755' : '100644';
    }
  }
  if (op.operation !== 'delete') {
    const parts = op.path.split('/');
    for (let i = 0; i < parts.length; i += 1) {
      const sub = parts.slice(0, i + 1).join('/');
      const entry = entries.get(sub);
      if (!entry) break;
      const last = i === parts.length - 1;
      if (!last && entry.type !== 'tree') {
        throw invalid(`a file exists where you’re trying to create a subdirectory [path: ${sub}]`, 'path_conflict');
      }
      if (last && entry.mode === '120000' && op.fromPath !== op.path) {
        throw invalid(`a symbolic link exists where you’re trying to create a subdirectory [path: ${sub}]`, 'path_conflict');
      }
      if (last && entry.type === 'tree') throw invalid(`a directory exists where you’re trying to create a file [path: ${sub}]`, 'path_conflict');
      if (last && (op.fromPath !== op.path || op.operation === 'create')) {
        throw invalid(`repository file already exists [path: ${op.path}]`, 'file_exists');
      }
    }
  }
  return { op, mode, from };
}

function indexChanges(plan: PlannedFile[]): IndexChange[] {
  const changes: IndexChange[] = [];
  for (const { op, mode, from } of plan) {
    if (op.operation === 'delete') {
      changes.push({ path: op.path, remove: true });
      continue;
    }
    if (op.fromPath !== op.path && from) changes.push({ path: op.fromPath, remove: true });
    if (op.content) changes.push({ path: op.path, mode, content: op.content });
    else if (from) changes.push({ path: op.path, mode: from.mode, blobSha: from.sha });
    else changes.push({ path: op.path, mode, content: (op.content = Buffer.alloc(0)) });
  }
  return changes;
}

function validate(input: ChangeFilesInput): void {
  if (input.files.length === 0) throw invalid('[files]: Required', 'no_files');
  const seen = new Set<string>();
  for (const file of input.files) {
    if (!OPERATIONS.has(file.operation)) throw invalid(`invalid file operation: ${file.operation} ${file.path}`, 'invalid_operation');
    if (!isWritablePath(file.path)) throw invalidPath(file.path);
    if (file.fromPath && !isWritablePath(file.fromPath)) throw invalidPath(file.fromPath);
    if (seen.has(file.path)) throw invalid(`a path may be changed once per commit [path: ${file.path}]`, 'duplicate_path');
    seen.add(file.path);
  }
  if (input.branch && !isBranchName(input.branch)) throw notFound(`branch does not exist [name: ${input.branch}]`, 'branch_not_found');
  if (input.newBranch && !isBranchName(input.newBranch)) throw invalid('[new_branch]: GitRefName', 'invalid_branch_name');
}

/**
 * Gitea's reqRepoBranchWriter: the route table asks only that the caller may read (its
 * `repoAccess`), because writing is a rule about the target branch (branch protection
 * decides the rest below), so the write permission is checked here.
 */
function requireWriter(access: RepositoryAccess, caller: Caller): void {
  if (access.repository.archived) throw forbidden(`repo is archived`, 'repo_archived');
  if (!atLeast(access.permission, 'write') || caller.userId <= 0) {
    throw forbidden('user should have a permission to write to the target branch', 'contents_write_denied');
  }
  refuseMirrorWrites(access.repository);
}

async function doerOf(deps: ContentDeps, caller: Caller): Promise<IdentityInput> {
  const user = await deps.store.findOwnerById(caller.userId);
  return { name: user?.fullName || caller.login, email: user?.email || `${caller.login.toLowerCase()}@noreply.anvil` };
}

const seconds = (date: Date | undefined, now: number) => (date ? Math.floor(date.getTime() / 1000) : now);

/** The repository as the request's path names it. */
export interface RepositoryNames {
  owner: string;
  name: string;
}

/**
 * The protection rules as the refs' rows' statement reads them at the turn's start, started
 * from the path's names alone so it goes out with the resolution; undefined when the names
 * are no safe path (the resolution then answers for them).
 */
function rulesByNames(deps: ContentDeps, names: RepositoryNames): Promise<BranchProtection[] | undefined> | undefined {
  try {
    const rules = deps.files(names.owner, names.name).rulesAtTurnStart();
    rules.catch(() => undefined);
    return rules;
  } catch {
    return undefined;
  }
}

const sameRepository = (names: RepositoryNames, repo: RepositoryAccess['repository']) =>
  names.owner.toLowerCase() === repo.owner_login.toLowerCase() && names.name.toLowerCase() === repo.name.toLowerCase();

/**
 * POST/PUT/DELETE /contents/{path} and POST /contents, in the repository's write turn, inside
 * refs.readCall. `resolve` gives the caller's access to the repository `names` names. What
 * the turn's start reads besides (the refs' rows with the protection rules, the committer)
 * needs only those names and the caller, so it goes out with the resolution: one round trip
 * of the database, where reading them after it took two.
 */
export async function changeFiles(
  deps: ContentDeps, names: RepositoryNames, resolve: () => Promise<RepositoryAccess>, input: ChangeFilesInput, caller: Caller,
): Promise<ChangeFilesResult> {
  const early = rulesByNames(deps, names);
  const [access, doer] = await Promise.all([resolve(), doerOf(deps, caller)]);
  requireWriter(access, caller);
  const repo = access.repository;
  // Only an update or a rename moves a file; for the others the source is the path itself.
  for (const file of input.files) {
    if (!file.fromPath || file.operation === 'create' || file.operation === 'delete') file.fromPath = file.path;
  }
  validate(input);
  const branch = input.branch || repo.default_branch;
  const target = input.newBranch || branch;
  const files = deps.files(repo.owner_login, repo.name);
  const zero = '0'.repeat(repo.object_format_name === 'sha256' ? 64 : 40);

  // Nothing moved yet in this turn: the refs table answers, no git process, from the
  // statement that already read the rules (a resolution that followed another name reads
  // its own).
  const [base, existing, rules] = await Promise.all([
    repo.empty ? undefined : files.resolveAtTurnStart(branch),
    repo.empty || target === branch ? undefined : files.resolveAtTurnStart(target),
    (early && sameRepository(names, repo) ? early : Promise.resolve(undefined)).then((read) => read ?? deps.protections.list(repo.id)),
  ]);
  if (!base || base.kind !== 'branch') {
    // An empty repository takes its first commit on any branch (Gitea: the push makes it).
    if (!repo.empty) throw notFound(`branch does not exist [name: ${branch}]`, 'branch_not_found');
  }
  let expectedOld = base?.commitSha ?? zero;
  if (target !== branch) {
    if (existing?.kind === 'branch') {
      if (!input.forcePush) throw invalid(`branch already exists [name: ${target}]`, 'branch_exists');
      expectedOld = existing.commitSha;
    } else {
      expectedOld = zero;
    }
  }

  const parent = base?.commitSha;
  const wanted = new Set<string>();
  for (const f of input.files) {
    const parts = f.path.split('/');
    parts.forEach((_, i) => wanted.add(parts.slice(0, i + 1).join('/')));
    wanted.add(f.fromPath);
  }
  const entries = parent ? await files.entries(parent, [...wanted]) : new Map<string, TreeEntry>();
  const plan = input.files.map((op) => planFile(op, entries));
  const changedFiles = [...new Set(input.files.flatMap((f) => (f.fromPath !== f.path ? [f.fromPath, f.path] : [f.path])))];

  const who = identities(input, doer);
  const now = Math.floor(Date.now() / 1000);
  const author = { ...who.author, time: seconds(input.authorDate, now) };
  const committer = { ...who.committer, time: seconds(input.committerDate, now) };
  const message = commitMessage(input.message || defaultCommitMessage(input.files), input.signoff, committer);
  const written = await files.writeCommit({
    parent, changes: indexChanges(plan), message, author, committer,
    objectFormat: repo.object_format_name === 'sha256' ? 'sha256' : 'sha1',
  });

  await checkProtection(deps, access, caller, files, { rules, branch: target, oldSha: expectedOld, newSha: written.commitSha, parent, changedFiles });
  try {
    await files.updateRef(`refs/heads/${target}`, written.commitSha, expectedOld);
  } catch {
    throw new DomainError('conflict', `PushOutOfDate Error: branch ${target} was updated meanwhile, try again`, 'push_out_of_date');
  }
  const commit: ChangedCommit = { sha: written.commitSha, treeSha: written.treeSha, parents: parent ? [parent] : [], message, author, committer };
  files.headMoved(`refs/heads/${target}`, commit);
  await publishWrite(deps, access, caller, files, { branch: target, before: expectedOld, commit, plan, zero, bytes: written.bytes });
  return { branch: target, commit, files: await describeWritten(plan, written.blobs, files, commit, deps.maxBlobSize) };
}

interface ProtectionInput {
  /** The repository's protection rules, read at the turn's start. */
  rules: BranchProtection[];
  branch: string;
  oldSha: string;
  newSha: string;
  parent?: string;
  changedFiles: string[];
}

/**
 * THE check (checkProtectedPush), answered with the contents API's own Gitea messages
 * (VerifyBranchProtection): a protected file names its path; anything else is "user cannot
 * commit". The commit was built on `parent`, so it is a fast-forward of it without asking git.
 */
async function checkProtection(deps: ContentDeps, access: RepositoryAccess, caller: Caller, files: RepoFiles, input: ProtectionInput): Promise<void> {
  const { rules } = input;
  if (!ruleFor(rules, input.branch)) return;
  const pusher = await pusherOf(deps.store, access, caller);
  const facts = files.facts();
  const decision = await checkProtectedPush({
    rules, defaultBranch: access.repository.default_branch, branch: input.branch, pusher,
    oldSha: input.oldSha, newSha: input.newSha, changedFiles: input.changedFiles,
  }, {
    ...facts,
    isAncestor: (a, b) => (a === input.parent && b === input.newSha ? Promise.resolve(true) : facts.isAncestor(a, b)),
  });
  if (decision.allowed) return;
  if (decision.reason === 'protected_file') {
    const rule = ruleFor(rules, input.branch)!;
    const path = matchingPath(filePatterns(rule.protectedFilePatterns), input.changedFiles) ?? '';
    throw forbidden(`path is protected and can not be changed [path: ${path}]`, 'protected_file');
  }
  if (decision.reason === 'protected_force_push') throw forbidden(decision.message, decision.reason);
  throw forbidden(`user cannot commit to repo [user: ${caller.login.toLowerCase()}]`, decision.reason);
}

interface WriteRecord {
  branch: string;
  before: string;
  commit: ChangedCommit;
  plan: PlannedFile[];
  zero: string;
  /** Bytes the write added on disk, when the writer counted them. */
  bytes?: number;
}

/** What `git push` of the same commit would publish (src/git-http/push-recorder.ts). */
async function publishWrite(deps: ContentDeps, access: RepositoryAccess, caller: Caller, files: RepoFiles, write: WriteRecord): Promise<void> {
  const repo = access.repository;
  const ref = `refs/heads/${write.branch}`;
  const added: string[] = [];
  const removed: string[] = [];
  const modified: string[] = [];
  for (const { op, from } of write.plan) {
    if (op.operation === 'delete') removed.push(op.path);
    else if (op.fromPath !== op.path) {
      removed.push(op.fromPath);
      added.push(op.path);
    } else (from ? modified : added).push(op.path);
  }
  const { commit } = write;
  const info = {
    id: commit.sha, message: commit.message,
    authorName: commit.author.name, authorEmail: commit.author.email, authorTime: commit.author.time,
    committerName: commit.committer.name, committerEmail: commit.committer.email, committerTime: commit.committer.time,
    added, removed, modified,
  };
  const pusher = { id: caller.userId, login: caller.login };
  const becomesDefault = repo.empty && write.branch !== repo.default_branch;
  const eventsOf = (repository: Repository): RepositoryEvent[] => [
    ...(write.before === write.zero ? [{ kind: 'branch.created' as const, repository, name: write.branch, ref, sha: commit.sha, pusher }] : []),
    { kind: 'push', repository, push: { ref, before: write.before, after: commit.sha, commits: [info], totalCommits: 1 }, pusher },
  ];
  // The size grows by the objects written, with the events (as a push's objects would be
  // counted); measuring the whole directory again costs more than the write.
  const grown = write.bytes ? { repositoryId: repo.id, bytes: write.bytes } : undefined;
  await recordRefMove(deps.store, repo, eventsOf, { firstCommit: repo.empty, defaultBranch: write.branch, grown });
  if (becomesDefault) await files.setDefaultBranch(write.branch);
  if (write.bytes === undefined) deps.sizes.refresh(repo.id, () => files.size());
}

/** The response's entries, from what was just written (a carried-over blob is read back). */
function describeWritten(plan: PlannedFile[], blobs: Map<string, { sha: string; size: number }>, files: RepoFiles, commit: ChangedCommit, maxBlobSize: number): Promise<Array<ContentItem | undefined>> {
  const lastCommit = { sha: commit.sha, authorTime: commit.author.time, committerTime: commit.committer.time, message: commit.message };
  return Promise.all(plan.map(async ({ op, mode, from }) => {
    if (op.operation === 'delete') return undefined;
    const blob = blobs.get(op.path) ?? { sha: from!.sha, size: from!.size };
    const type = contentTypeOf({ mode: blobs.has(op.path) ? mode : from!.mode, type: 'blob' });
    // Like a read: a file over [api] DEFAULT_MAX_BLOB_SIZE is described without its bytes.
    const content = blob.size > maxBlobSize && type === 'file' ? undefined : op.content ?? (await files.readBlob(blob.sha));
    const item: ContentItem = { name: op.path.slice(op.path.lastIndexOf('/') + 1), path: op.path, sha: blob.sha, type, size: blob.size, content, lastCommit };
    if (type === 'symlink') item.target = content?.subarray(0, 1024).toString('utf8');
    return item;
  }));
}
