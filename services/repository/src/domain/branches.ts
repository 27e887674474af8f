// Branches of a repository: list, read, create, delete, rename. Every ref move goes through
// `update-ref <ref> <new> <old>` (a concurrent writer that won makes this one a conflict),
// deletion obeys checkProtectedPush like a push would, and creation/deletion publish
// branch.created/branch.deleted in the transaction that records them.
import { alreadyExists, DomainError, forbidden, invalid, notFound, type Caller } from '@anvil/kit';
import { canUserMerge, canUserPush, checkProtectedPush, ruleFor, type BranchProtection, type PushGitFacts, type Pusher } from './branch-protection.js';
import type { BranchProtectionStore } from './branch-protection-store.js';
import { pusherTeamNames } from './org-access.js';
import { atLeast } from './permission.js';
import type { RepositoryAccess } from './repositories.js';
import type { RepositoryEvent, RepositoryStore } from './store.js';
import type { CommitInfo, CommitSummary } from './push.js';
import { refuseMirrorWrites, type Repository } from './repository.js';
import { settleRefs, takeRefRow } from './write-turn.js';


/** A branch and its head commit, as git lists it. */
export interface BranchHead extends CommitSummary {
  name: string;
  sha: string;
}

/** The git operations branches need, over the repository's bare directory. */
export interface BranchGit {
  heads(owner: string, name: string, only?: string): Promise<BranchHead[]>;
  /**
   * The heads (as heads()) with the repository's protection rules and the names of
   * `userId`'s teams in the owning organization, read together (one SQL statement for a
   * branch read); undefined when they cannot be read together (then heads() and the stores).
   */
  headsWithRules?(owner: string, name: string, userId: number, only?: string): Promise<BranchReadFacts | undefined>;
  resolve(owner: string, name: string, revision: string): Promise<string | undefined>;
  /** Throws RefConflict-style errors as `conflict` DomainErrors. */
  updateRef(owner: string, name: string, ref: string, newSha: string, oldSha: string): Promise<void>;
  renameRef(owner: string, name: string, from: string, to: string, sha: string): Promise<void>;
  facts(owner: string, name: string): PushGitFacts;
  setDefaultBranch?(owner: string, name: string, branch: string): Promise<void>;
  /** Commits reachable from `after` but from none of `exclude`, newest first (for the push event). */
  commitsBetween?(owner: string, name: string, after: string, exclude: string[]): Promise<{ commits: CommitInfo[]; total: number }>;
}

/** What a branch read shows beside the heads. */
export interface BranchReadFacts {
  heads: BranchHead[];
  protections: BranchProtection[];
  teams: string[];
}

export interface BranchDeps {
  store: RepositoryStore;
  protections: BranchProtectionStore;
  git: BranchGit;
}

export interface BranchView {
  head: BranchHead;
  rule?: BranchProtection;
  userCanPush: boolean;
  userCanMerge: boolean;
}

/**
 * The caller as branch protection sees them, with their team names in an owning org (every
 * API write path). `teams`: those names when already read (else asked for here).
 */
export async function pusherOf(store: RepositoryStore, access: RepositoryAccess, caller: Caller, teams?: string[]): Promise<Pusher> {
  return { id: caller.userId, login: caller.login, permission: access.permission, teams: teams ?? await pusherTeamNames(store, access.owner, caller.userId) };
}

function viewOf(head: BranchHead, rules: BranchProtection[], pusher: Pusher): BranchView {
  const rule = ruleFor(rules, head.name);
  const canWrite = atLeast(pusher.permission, 'write') && pusher.id > 0;
  return {
    head, rule,
    userCanPush: canWrite && (!rule || canUserPush(rule, pusher)),
    userCanMerge: canWrite && canUserMerge(rule, pusher),
  };
}

/** A branch name Gitea would accept (git's check-ref-format, never an option). */
export function isBranchName(name: string): boolean {
  if (!name || name.length > 255 || name.startsWith('-') || name.startsWith('/') || name.endsWith('/') || name.endsWith('.')) return false;
  if (name.endsWith('.lock') || name.includes('..') || name.includes('//') || name.includes('@{') || name === '@' || name === 'HEAD') return false;
  if (name.startsWith('refs/') || /[\x00-\x20\x7f~^:?*[\\]/.test(name)) return false;
  return name.split('/').every((part) => part.length > 0 && !part.startsWith('.'));
}

const branchNotFound = () => notFound('The target couldn\'t be found.', 'branch_not_found');

/**
 * The heads (all, or the one named `only`), the protection rules and the caller as a pusher:
 * from one read of the refs with the rules when the git side offers it, else from git, the
 * rules store and the caller's teams.
 */
async function branchFacts(deps: BranchDeps, access: RepositoryAccess, caller: Caller, only?: string): Promise<{ heads: BranchHead[]; rules: BranchProtection[]; pusher: Pusher }> {
  const { owner_login: owner, name } = access.repository;
  const together = await deps.git.headsWithRules?.(owner, name, caller.userId, only);
  if (together) {
    const teams = access.owner.type === 'organization' && caller.userId > 0 ? together.teams : [];
    return { heads: together.heads, rules: together.protections, pusher: { id: caller.userId, login: caller.login, permission: access.permission, teams } };
  }
  const [heads, rules, pusher] = await Promise.all([deps.git.heads(owner, name, only), deps.protections.list(access.repository.id), pusherOf(deps.store, access, caller)]);
  return { heads, rules, pusher };
}

export async function listBranches(deps: BranchDeps, access: RepositoryAccess, caller: Caller, offset: number, limit: number): Promise<{ items: BranchView[]; total: number }> {
  if (access.repository.empty) return { items: [], total: 0 };
  const { heads, rules, pusher } = await branchFacts(deps, access, caller);
  return { items: heads.slice(offset, offset + limit).map((h) => viewOf(h, rules, pusher)), total: heads.length };
}

async function headOf(deps: BranchDeps, access: RepositoryAccess, branch: string): Promise<BranchHead | undefined> {
  if (!isBranchName(branch)) return undefined;
  const [head] = await deps.git.heads(access.repository.owner_login, access.repository.name, `refs/heads/${branch}`);
  return head;
}

export async function getBranch(deps: BranchDeps, access: RepositoryAccess, branch: string, caller: Caller): Promise<BranchView> {
  if (!isBranchName(branch)) throw branchNotFound();
  const { heads: [head], rules, pusher } = await branchFacts(deps, access, caller, `refs/heads/${branch}`);
  if (!head) throw branchNotFound();
  return viewOf(head, rules, pusher);
}

/**
 * What a branch write needs beyond the caller's write permission (the gateway's route table
 * checks that, `repoAccess: 'write'`): a repository that is neither archived nor a mirror.
 */
function refuseReadOnly(access: RepositoryAccess): void {
  if (access.repository.archived) throw forbidden('repository is archived', 'repo_archived');
  refuseMirrorWrites(access.repository);
}

/**
 * Publishes what a push of the same ref move would (src/git-http/push-recorder.ts):
 * branch.created, push, branch.deleted, so webhooks cannot tell the API from `git push`.
 * `listed`: the move's commits as `git log` would list them, when the writer knows them
 * itself (a merge that built its one commit), so no git process is started for them; it may
 * still be on its way (undefined: ask git after all).
 */
export async function publishRefMove(
  deps: BranchDeps, access: RepositoryAccess, caller: Caller, branch: string, before: string, after: string,
  listed?: Promise<{ commits: CommitInfo[]; total: number } | undefined>,
): Promise<void> {
  const repo = access.repository;
  const zero = '0'.repeat(Math.max(before.length, after.length));
  const ref = `refs/heads/${branch}`;
  const pusher = { id: caller.userId, login: caller.login };
  // The refs table is brought up to the move while the commits are still being listed.
  const settled = settleRefs();
  // A new branch from an existing commit brings no new commits; a move lists before..after.
  const none = { commits: [], total: 0 };
  const moved = after !== zero && before !== zero;
  const { commits, total } = !moved ? none : (await listed) ?? (await deps.git.commitsBetween?.(repo.owner_login, repo.name, after, [before])) ?? none;
  await settled;
  const eventsOf = (repository: Repository): RepositoryEvent[] => [
    ...(before === zero ? [{ kind: 'branch.created' as const, repository, name: branch, ref, sha: after, pusher }] : []),
    { kind: 'push', repository, push: { ref, before, after, commits, totalCommits: total }, pusher },
    ...(after === zero ? [{ kind: 'branch.deleted' as const, repository, name: branch, ref, sha: before, pusher }] : []),
  ];
  await recordRefMove(deps.store, repo, eventsOf, { firstCommit: repo.empty && after !== zero, refsSettled: true });
}

/** What a ref move changes beside git, for recordRefMove. */
export interface RefMoveRecord {
  /** The move gives an empty repository its first commit. */
  firstCommit: boolean;
  /** With the first commit: the branch it landed on becomes the default (a contents write, as a first push does). */
  defaultBranch?: string;
  /** The repository's size grown by the objects the writer added. */
  grown?: { repositoryId: number; bytes: number };
  /** The writer brought the refs table up to the move itself (settleRefs), so it is not done twice. */
  refsSettled?: boolean;
}

/**
 * Writes a ref move's events, never before the write turn's refs table shows the move. The
 * first commit of an empty repository changes its row, so that goes in a transaction with
 * the events, after the refs table is settled; the usual move changes no row of ours but
 * the size (git holds it) and the moved ref's row: the events, the size and that row in one
 * statement (takeRefRow), or the events and the size once the table is settled. The
 * contents API and the branch and merge writes share it, so a move is recorded alike
 * whichever path made it.
 */
export async function recordRefMove(store: RepositoryStore, repo: Repository, eventsOf: (repository: Repository) => RepositoryEvent[], move: RefMoveRecord): Promise<void> {
  const pending = move.refsSettled || move.firstCommit ? undefined : takeRefRow();
  if (pending) {
    // The moved ref's row goes in the events' own statement.
    const ref = { owner: repo.owner_login, name: repo.name, row: pending.row };
    if (await store.publishAlone(eventsOf(repo), move.grown, ref)) pending.written();
    return;
  }
  if (!move.refsSettled) await settleRefs();
  if (!move.firstCommit) {
    await store.publishAlone(eventsOf(repo), move.grown);
    return;
  }
  await store.transaction(async (tx) => {
    const repository = await tx.update(repo.id, { empty: false, ...(move.defaultBranch ? { default_branch: move.defaultBranch } : {}) });
    if (move.grown) await tx.growSize(repo.id, move.grown.bytes);
    for (const event of eventsOf(repository)) await tx.publish(event);
  });
}

export interface CreateBranchInput {
  newBranchName: string;
  oldBranchName: string;
  oldRefName: string;
}

/** POST /branches (Gitea's CreateBranch): from a branch, a ref or a commit; the default branch when neither is given. */
export async function createBranch(deps: BranchDeps, access: RepositoryAccess, input: CreateBranchInput, caller: Caller): Promise<BranchView> {
  refuseReadOnly(access);
  const repo = access.repository;
  if (repo.empty) throw notFound('Git Repository is empty.', 'repo_empty');
  if (!isBranchName(input.newBranchName)) throw invalid('[new_branch_name]: GitRefName', 'invalid_branch_name');
  let source: string | undefined;
  if (input.oldRefName) {
    source = isSafeRevision(input.oldRefName) ? await deps.git.resolve(repo.owner_login, repo.name, input.oldRefName) : undefined;
    if (!source) throw notFound('The old ref does not exist', 'ref_not_found');
  } else {
    const from = input.oldBranchName || repo.default_branch;
    const head = await headOf(deps, access, from);
    if (!head) throw notFound('The old branch does not exist', 'branch_not_found');
    source = head.sha;
  }
  if (await headOf(deps, access, input.newBranchName)) throw alreadyExists('The branch already exists.', 'branch_exists');
  const zero = '0'.repeat(source.length);
  const decision = await checkProtectedPush({
    rules: await deps.protections.list(repo.id), defaultBranch: repo.default_branch, branch: input.newBranchName,
    pusher: (await pusherOf(deps.store, access, caller)), oldSha: zero, newSha: source, changedFiles: [],
  }, deps.git.facts(repo.owner_login, repo.name));
  if (!decision.allowed) throw forbidden(decision.message, decision.reason);
  try {
    await deps.git.updateRef(repo.owner_login, repo.name, `refs/heads/${input.newBranchName}`, source, zero);
  } catch {
    throw alreadyExists('The branch already exists.', 'branch_exists');
  }
  await publishRefMove(deps, access, caller, input.newBranchName, zero, source);
  return getBranch(deps, access, input.newBranchName, caller);
}

function isSafeRevision(value: string): boolean {
  return /^[A-Za-z0-9_][A-Za-z0-9_./-]*$/.test(value) && !value.includes('..');
}

/** DELETE /branches/{branch}: never the default branch, never a protected one (Gitea's messages). */
export async function deleteBranch(deps: BranchDeps, access: RepositoryAccess, branch: string, caller: Caller): Promise<void> {
  refuseReadOnly(access);
  const repo = access.repository;
  if (repo.empty) throw notFound('Git Repository is empty.', 'repo_empty');
  const head = await headOf(deps, access, branch);
  if (!head) throw branchNotFound();
  if (branch === repo.default_branch) throw forbidden('can not delete default branch', 'branch_is_default');
  const rules = await deps.protections.list(repo.id);
  if (ruleFor(rules, branch)) throw forbidden('branch protected', 'branch_protected');
  try {
    await deps.git.updateRef(repo.owner_login, repo.name, `refs/heads/${branch}`, '0'.repeat(head.sha.length), head.sha);
  } catch {
    throw new DomainError('conflict', 'the branch was updated meanwhile', 'branch_out_of_date');
  }
  await publishRefMove(deps, access, caller, branch, head.sha, '0'.repeat(head.sha.length));
}

/**
 * PATCH /branches/{branch} (Gitea 1.27's RenameBranch): admins may rename the default
 * branch (HEAD follows); a protected branch, or a name a rule protects, is refused.
 */
export async function renameBranch(deps: BranchDeps, access: RepositoryAccess, branch: string, newName: string, caller: Caller): Promise<void> {
  refuseReadOnly(access);
  const repo = access.repository;
  if (!isBranchName(newName)) throw invalid('[name]: GitRefName', 'invalid_branch_name');
  const head = await headOf(deps, access, branch);
  if (!head) throw branchNotFound();
  if (branch === newName) return;
  const rules = await deps.protections.list(repo.id);
  if (ruleFor(rules, branch) || ruleFor(rules, newName)) throw forbidden('Branch is protected', 'branch_protected');
  if (branch === repo.default_branch && !atLeast(access.permission, 'admin')) throw forbidden('user should be an admin to rename the default branch', 'branch_is_default');
  if (await headOf(deps, access, newName)) throw invalid('Branch already exists.', 'branch_exists');
  try {
    await deps.git.renameRef(repo.owner_login, repo.name, `refs/heads/${branch}`, `refs/heads/${newName}`, head.sha);
  } catch {
    throw new DomainError('conflict', 'the branch was updated meanwhile', 'branch_out_of_date');
  }
  await settleRefs();
  await deps.store.transaction(async (tx) => {
    const repository = branch === repo.default_branch ? await tx.update(repo.id, { default_branch: newName }) : repo;
    const pusher = { id: caller.userId, login: caller.login };
    await tx.publish({ kind: 'branch.created', repository, name: newName, ref: `refs/heads/${newName}`, sha: head.sha, pusher });
    await tx.publish({ kind: 'branch.deleted', repository, name: branch, ref: `refs/heads/${branch}`, sha: head.sha, pusher });
  });
  if (branch === repo.default_branch) await deps.git.setDefaultBranch?.(repo.owner_login, repo.name, newName);
}

export interface UpdateBranchInput {
  newCommitId: string;
  oldCommitId: string;
  force: boolean;
}

/**
 * PUT /branches/{branch} (Gitea 1.27's UpdateBranch): moves a branch to another commit with
 * `update-ref <ref> <new> <old>`, obeying the branch's protection exactly as a push does.
 */
export async function updateBranch(deps: BranchDeps, access: RepositoryAccess, branch: string, input: UpdateBranchInput, caller: Caller): Promise<void> {
  refuseReadOnly(access);
  const repo = access.repository;
  const head = await headOf(deps, access, branch);
  if (!head) throw branchNotFound();
  if (input.oldCommitId && input.oldCommitId !== head.sha) throw new DomainError('conflict', 'branch commit id mismatch', 'branch_out_of_date');
  const target = isSafeRevision(input.newCommitId) ? await deps.git.resolve(repo.owner_login, repo.name, input.newCommitId) : undefined;
  if (!target) throw notFound('The new commit does not exist', 'commit_not_found');
  if (target === head.sha) return;
  const facts = deps.git.facts(repo.owner_login, repo.name);
  if (!input.force && !(await facts.isAncestor(head.sha, target))) {
    throw invalid('the new commit is not a descendant of the branch; set force to move it anyway', 'not_fast_forward');
  }
  const decision = await checkProtectedPush({
    rules: await deps.protections.list(repo.id), defaultBranch: repo.default_branch, branch,
    pusher: (await pusherOf(deps.store, access, caller)), oldSha: head.sha, newSha: target,
  }, facts);
  if (!decision.allowed) throw forbidden(decision.message, decision.reason);
  try {
    await deps.git.updateRef(repo.owner_login, repo.name, `refs/heads/${branch}`, target, head.sha);
  } catch {
    throw new DomainError('conflict', 'the branch was updated meanwhile', 'branch_out_of_date');
  }
  await publishRefMove(deps, access, caller, branch, head.sha, target);
}
