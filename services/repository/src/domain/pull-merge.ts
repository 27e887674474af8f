// Merging a pull request's head into its base (Gitaly's MergeToRef, Gitea's
// services/pull/merge.go) without a work tree: the new commit is built with plumbing
// (merge-tree, commit-tree, a cherry-pick per commit for rebases), passes THE protection check
// (checkProtectedPush) and lands with `update-ref <base> <new> <old>`. The caller runs this in
// the repository's write turn; across replicas the compare-and-swap still decides, and the
// loser answers push-out-of-date with nothing written to any ref. Conflicts are found before
// anything is written, never halfway through.
import { DomainError, forbidden, invalid, isObjectId, isValidRefName, notFound, type Caller } from '@anvil/kit';
import { checkProtectedPush, ruleFor, type BranchProtection, type Pusher } from './branch-protection.js';
import type { BranchProtectionStore } from './branch-protection-store.js';
import { isBranchName, publishRefMove, pusherOf, type BranchDeps } from './branches.js';
import { atLeast } from './permission.js';
import { noMergeBase, requireMergeBase, resolveSide, type PullGit, type PullGitDeps, type TrialMerge, type TurnStart } from './pull-git.js';
import type { RepositoryAccess } from './repositories.js';
import type { RepositoryStore } from './store.js';
import { writtenAsGiven, type CommitParts, type Signature } from './commit-writing.js';
import type { CommitInfo } from './push.js';
import type { CommitStatusStore } from './commit-statuses.js';
import { pusherTeamNames } from './org-access.js';
import { mayOverride, mergeRefusal, type ReviewVerdict } from './pull-merge-rules.js';
import { isMergeStyleAllowed } from './pull-request-settings.js';
import { manualMergeCommit } from './manual-merge.js';
import { refuseMirrorWrites } from './repository.js';

export const MERGE_STYLES = ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only'] as const;

const alreadyMerged = () => new DomainError('bad_request', 'the head is already merged into the base', 'already_merged');
export type MergeStyle = (typeof MERGE_STYLES)[number];

export interface MergeInput {
  baseBranch: string;
  head: string;
  style: string;
  message: string;
  expectedHeadSha: string;
  pullIndex: number;
  pullTitle: string;
  deleteHeadBranch: string;
  author?: { name: string; email: string };
  /** The latest verdict of each reviewer (collaboration's), for the base rule's review rules. */
  reviews?: ReviewVerdict[];
  /** Gitea's force_merge (admins past the review and status rules, unless the rule blocks it). */
  forceMerge?: boolean;
  /** manually-merged: the commit on the base that brought the head in. */
  mergeCommitId?: string;
  /** The head branch to delete when the repository deletes head branches by default. */
  defaultDeleteHeadBranch?: string;
}

export interface MergeResult {
  mergeCommitSha: string;
  baseBefore: string;
  headSha: string;
  headBranchDeleted: boolean;
}

export interface PullMergeDeps extends PullGitDeps {
  /** Who the pusher is there (teams, for the branch rules' whitelists). */
  store: RepositoryStore;
  protections: BranchProtectionStore;
  /** Required status checks read the head commit's latest status per context. */
  statuses: Pick<CommitStatusStore, 'latestPerContext'>;
  /** Branch moves publish `push` like any other ref write (branches.ts publishRefMove). */
  branches: BranchDeps;
  /** Who the merger is in commits (their full name and e-mail). */
  signatureOf(caller: Caller): Promise<{ name: string; email: string }>;
}

function inTeams(whitelist: readonly string[], pusher: Pusher): boolean {
  const listed = new Set(whitelist.map((t) => t.toLowerCase()));
  return (pusher.teams ?? []).some((t) => listed.has(t.toLowerCase()));
}

/**
 * Gitea's IsUserAllowedToMerge: write permission when no rule governs the base; with a rule,
 * its merge whitelist when enabled (a whitelisted user needs no write permission), else write.
 */
export function isAllowedToMerge(rule: BranchProtection | undefined, pusher: Pusher): boolean {
  if (pusher.id <= 0) return false;
  if (!rule || !rule.enableMergeWhitelist) return atLeast(pusher.permission, 'write');
  return rule.mergeWhitelistUserIds.includes(pusher.id) || inTeams(rule.mergeWhitelistTeams, pusher);
}

/** Gitea's default merge messages (services/pull/merge.go getMergeMessage, without templates). */
export function defaultMergeMessage(style: MergeStyle, input: MergeInput, headLabel: string): string {
  if (style === 'squash') return `${input.pullTitle} (#${input.pullIndex})\n`;
  return `Merge pull request '${input.pullTitle}' (#${input.pullIndex}) from ${headLabel} into ${input.baseBranch}\n`;
}

export async function rebaseOnto(git: PullGit, base: string, head: string, committer: Signature): Promise<string> {
  let tip = base;
  for (const commit of await git.commitsOnHead(base, head, { noMerges: true })) {
    const picked = await git.cherryPick(commit, tip, committer);
    if (!picked) throw new DomainError('bad_request', 'Please rebase the pull request manually: it does not rebase cleanly onto its base', 'not_mergeable');
    tip = picked;
  }
  return tip;
}

/**
 * The new tip of the base. `built`: the one commit a merge or squash wrote on top of the base
 * (the base's first-parent history gains just it). `trial`: the trial merge of base and head
 * when already started (merge and squash).
 */
async function buildMerge(
  git: PullGit, style: MergeStyle, baseSha: string, headSha: string, message: string, author: Signature, committer: Signature, trial?: Promise<TrialMerge>,
): Promise<{ sha: string; built?: CommitParts }> {
  if (style === 'fast-forward-only') {
    if (!(await git.isAncestor(baseSha, headSha))) throw new DomainError('bad_request', 'the base branch is not an ancestor of the head: fast-forward is impossible', 'not_fast_forward');
    return { sha: headSha };
  }
  if (style === 'rebase') return { sha: await rebaseOnto(git, baseSha, headSha, committer) };
  if (style === 'rebase-merge') {
    const rebased = await rebaseOnto(git, baseSha, headSha, committer);
    return { sha: await git.commitTree({ tree: await git.treeOf(rebased), parents: [baseSha, rebased], message, author: committer, committer }) };
  }
  const merged = await (trial ?? git.trialMerge(baseSha, headSha));
  if (merged.conflicts.length) {
    throw new DomainError('bad_request', `the pull request has conflicts: ${merged.conflicts.join(', ')}`, 'not_mergeable');
  }
  const parents = style === 'squash' ? [baseSha] : [baseSha, headSha];
  const built = { tree: merged.tree, parents, message, author: style === 'squash' ? author : committer, committer };
  return { sha: await git.commitTree(built), built };
}

/**
 * The push event's commits for a merge or squash commit this merge wrote, as `git log
 * --first-parent --name-status` lists them (push-recorder.ts): that one commit, with the
 * paths it changes from the base, read over the cat-file cache instead of a `git log`.
 * `brought`: how many commits the base gains (the head's own, plus the merge commit). The
 * paths are read at once, beside the count and the ref move.
 */
async function listBuilt(git: PullGit, baseSha: string, sha: string, built: CommitParts, brought: Promise<number>): Promise<{ commits: CommitInfo[]; total: number }> {
  const [paths, total] = await Promise.all([git.pathChanges(baseSha, built.tree), brought]);
  const commit: CommitInfo = {
    id: sha, message: built.message, ...paths,
    authorName: built.author.name, authorEmail: built.author.email, authorTime: built.author.time,
    committerName: built.committer.name, committerEmail: built.committer.email, committerTime: built.committer.time,
  };
  return { commits: [commit], total };
}

/**
 * Merges head into the base branch of `access`'s repository, resolved for the caller inside
 * the repository's write turn (its row read there, so archived and the default branch are fresh).
 */
export async function mergeToRef(deps: PullMergeDeps, access: RepositoryAccess, input: MergeInput, caller: Caller): Promise<MergeResult> {
  const repo = access.repository;
  if (repo.archived) throw forbidden('repo is archived', 'repo_archived');
  refuseMirrorWrites(repo);
  const manual = input.style === 'manually-merged';
  if (!manual && !(MERGE_STYLES as readonly string[]).includes(input.style)) throw invalid(`[Do]: unknown merge style ${input.style}`, 'invalid_merge_style');
  const style = input.style as MergeStyle;
  if (!isBranchName(input.baseBranch)) throw notFound(`base does not exist [base: ${input.baseBranch}]`, 'base_not_found');
  const git = deps.pullGit(repo.owner_login, repo.name);
  // The sides, the base's rules and the merger's teams: one statement when the ref rows answer,
  // else git and two reads side by side.
  const readApart = () => Promise.all([deps.protections.list(repo.id), pusherOf(deps.store, access, caller)]);
  const fromRows = input.head.startsWith('refs/heads/') && isValidRefName(input.head);
  const read = fromRows ? undefined : readApart();
  read?.catch(() => {}); // awaited below, after the sides' own refusals
  const { baseSha, headSha, head, rules: readWithRefs } = await resolveMergeSides(git, input, caller.userId);
  const [rules, pusher] = readWithRefs
    ? [readWithRefs.protections, await pusherOf(deps.store, access, caller, readWithRefs.teams)]
    : await (read ?? readApart());
  if (input.expectedHeadSha && input.expectedHeadSha !== headSha) {
    throw new DomainError('conflict', 'the head of the pull request has changed: merge again with the new head', 'head_moved');
  }
  const rule = ruleFor(rules, input.baseBranch);
  if (!isAllowedToMerge(rule, pusher)) throw new DomainError('forbidden', 'User not allowed to merge PR', 'not_allowed_to_merge');
  // Gitea checks nothing more before a manual mark; the style comes after the merger's right.
  if (manual) {
    requireStyleAllowed(repo.pull_request_settings, input.style);
    return { mergeCommitSha: await manualMergeCommit(git, baseSha, input.mergeCommitId ?? ''), baseBefore: baseSha, headSha, headBranchDeleted: false };
  }
  const who = deps.signatureOf(caller);
  who.catch(() => {}); // awaited below; a refusal before then must not leave it unhandled
  // A merge or squash takes the trial merge whatever the checks below decide, so it runs
  // beside them (its objects are only written: nothing refers to them until the base moves).
  const trial = style === 'merge' || style === 'squash' ? git.trialMerge(baseSha, headSha) : undefined;
  trial?.catch(() => {}); // awaited below
  // Counted beside the trial merge: a merge commit brings the head's commits the base lacks
  // (the push event lists how many), and the outdated-branch rule reads how far the head is behind.
  const divergence = trial || rule?.blockOnOutdatedBranch ? git.divergence(baseSha, headSha) : undefined;
  divergence?.catch(() => {});
  if (trial && divergence) {
    // The trial merge and the count answer what a merge base would: git refuses to merge
    // histories without one, and a head with nothing ahead of the base is in it already.
    // Such a head merges into the base's own tree, so a trial merge with another tree needs
    // no count yet: the count (how many commits the push event lists) runs on beside the
    // commit and the ref move, and a remembered trial merge (the pull's mergeability check
    // made it) leaves it the only git process of the merge.
    const merged = await trial;
    if (merged.unrelated) throw noMergeBase();
    if (merged.tree === (await git.treeOf(baseSha)) && (await divergence).ahead === 0) throw alreadyMerged();
  } else {
    // One merge base answers both: no common history, or the head already in the base (the base is its own merge base with it).
    const mergeBase = await requireMergeBase({ access, git, baseSha, headSha });
    if (mergeBase === headSha) throw alreadyMerged();
  }
  await checkMergeRules(deps, { access, git, rule, pusher, baseSha, headSha, input, divergence });
  requireStyleAllowed(repo.pull_request_settings, style);

  const now = Math.floor(Date.now() / 1000);
  const committer = { ...(await who), time: now };
  const author = input.author?.name ? { name: input.author.name, email: input.author.email, time: now } : committer;
  // Gitea names the head branch (pr.HeadBranch), also when the merge takes the pull's own ref.
  const headLabel = input.head.startsWith('refs/heads/') ? input.head.slice('refs/heads/'.length) : head;
  const message = input.message || defaultMergeMessage(style, input, headLabel);
  const { sha: newSha, built } = await buildMerge(git, style, baseSha, headSha, message, author, committer, trial);
  const brought = style === 'squash' ? Promise.resolve(1) : divergence?.then((d) => d.ahead + 1);
  // A commit git wrote itself (an unusual name or e-mail) is listed by `git log`, as git stored
  // it; so is this one when the count failed (it is awaited only once the base moved, and the
  // push event must still be written then).
  const listed = built && brought && writtenAsGiven(built)
    ? listBuilt(git, baseSha, newSha, built, brought).catch(() => undefined)
    : undefined;

  // THE check, as for a push; a merger allowed by the merge whitelist needs no push permission.
  // A merge or squash commit has the base as its first parent: that move is known to be a fast-forward.
  const builtOnBase = style === 'merge' || style === 'squash' || style === 'rebase-merge';
  const decision = await checkProtectedPush({
    rules, defaultBranch: repo.default_branch, branch: input.baseBranch, pusher, oldSha: baseSha, newSha,
  }, {
    ...deps.branches.git.facts(repo.owner_login, repo.name),
    isAncestor: (a, b) => (builtOnBase && a === baseSha && b === newSha ? Promise.resolve(true) : git.isAncestor(a, b)),
  });
  if (!decision.allowed && !(decision.reason === 'protected_branch' && isAllowedToMerge(rule, pusher))) {
    throw new DomainError('forbidden', decision.message, 'push_rejected');
  }
  // The base and the pull's own ref move in one transaction: the pull ref only with the base.
  const moves: Array<{ ref: string; newSha: string; oldSha?: string }> = [{ ref: `refs/heads/${input.baseBranch}`, newSha, oldSha: baseSha }];
  if (input.pullIndex > 0) moves.push({ ref: `refs/pull/${input.pullIndex}/head`, newSha: headSha });
  try {
    await git.updateRefs(moves);
  } catch {
    throw new DomainError('conflict', 'merge push out of date', 'push_out_of_date');
  }
  await publishRefMove(deps.branches, access, caller, input.baseBranch, baseSha, newSha, listed);
  // Asked for, or the repository's default_delete_branch_after_merge when the merger did not say.
  const toDelete = input.deleteHeadBranch || (repo.pull_request_settings.default_delete_branch_after_merge ? input.defaultDeleteHeadBranch ?? '' : '');
  const headBranchDeleted = await deleteHeadBranch(deps, access, caller, toDelete, headSha, rules);
  return { mergeCommitSha: newSha, baseBefore: baseSha, headSha, headBranchDeleted };
}

/**
 * The base's and the head's commits, from the ref rows when both are branches (the merge
 * has moved nothing yet in its turn), with the branch rules and `rulesFor`'s teams read in
 * the same statement; else from one git process, without them. A head branch that no
 * longer exists falls back to the pull's own ref (refs/pull/<index>/head), which outlives
 * it; `head` is the ref the merge takes.
 */
async function resolveMergeSides(git: PullGit, input: MergeInput, rulesFor: number): Promise<{ baseSha: string; headSha: string; head: string; rules?: TurnStart['rules'] }> {
  const baseRef = `refs/heads/${input.baseBranch}`;
  const pullRef = input.pullIndex > 0 ? `refs/pull/${input.pullIndex}/head` : undefined;
  if (!input.head.startsWith('refs/') || !isValidRefName(input.head)) {
    const [baseSha, headSha] = await Promise.all([resolveSide(git, baseRef, 'base'), resolveSide(git, input.head, 'head')]);
    return { baseSha, headSha, head: input.head };
  }
  const { refs: found, rules } = await git.resolveRefsAtTurnStart([baseRef, input.head], rulesFor);
  const baseSha = found.get(baseRef);
  if (!baseSha) throw notFound(`base does not exist [base: ${baseRef}]`, 'base_not_found');
  const fallback = pullRef && input.head.startsWith('refs/heads/') && !found.has(input.head) ? pullRef : undefined;
  const head = fallback ?? input.head;
  const headSha = fallback ? (await git.resolveRefs([fallback])).get(fallback) : found.get(head);
  if (!headSha) throw notFound(`head does not exist [head: ${input.head}]`, 'head_not_found');
  return { baseSha, headSha, head, rules };
}

/** Gitea's ErrInvalidMergeStyle, answered 405 with its message. */
function requireStyleAllowed(settings: Parameters<typeof isMergeStyleAllowed>[0], style: string): void {
  if (!isMergeStyleAllowed(settings, style)) {
    throw new DomainError('forbidden', `${style} is not allowed an allowed merge style for this repository`, 'merge_style_not_allowed');
  }
}

interface RuleContext {
  access: RepositoryAccess;
  git: PullGit;
  rule: BranchProtection | undefined;
  pusher: Pusher;
  baseSha: string;
  headSha: string;
  input: MergeInput;
  /** How far head and base diverge, when already asked for. */
  divergence?: Promise<{ ahead: number; behind: number }>;
}

/** The base rule's review and status rules (pull-merge-rules.ts), asking git and the store only for what the rule enables. */
async function checkMergeRules(deps: PullMergeDeps, { access, git, rule, pusher, baseSha, headSha, input, divergence }: RuleContext): Promise<void> {
  if (!rule) return;
  const verdicts = input.reviews ?? [];
  const behind = rule.blockOnOutdatedBranch ? (await (divergence ?? git.divergence(baseSha, headSha))).behind : 0;
  const statuses = rule.enableStatusCheck ? await deps.statuses.latestPerContext(access.repository.id, headSha) : [];
  const teams = new Map<number, readonly string[]>();
  if (rule.enableApprovalsWhitelist && rule.approvalsWhitelistTeams.length) {
    for (const v of verdicts) teams.set(v.reviewerId, await pusherTeamNames(deps.store, access.owner, v.reviewerId));
  }
  const refusal = mergeRefusal(rule, { verdicts, statuses, behind, teamsOf: (id) => teams.get(id) ?? [] });
  if (refusal && !mayOverride(rule, pusher, input.forceMerge ?? false)) throw new DomainError('forbidden', refusal, 'not_ready_to_merge');
}

/**
 * delete_branch_after_merge: only a branch of this repository, not the default one, not a
 * protected one, still at the merged head, and only for a writer; otherwise it stays.
 */
async function deleteHeadBranch(deps: PullMergeDeps, access: RepositoryAccess, caller: Caller, branch: string, headSha: string, rules: BranchProtection[]): Promise<boolean> {
  const repo = access.repository;
  if (!branch || !isBranchName(branch) || branch === repo.default_branch || ruleFor(rules, branch)) return false;
  if (!atLeast(access.permission, 'write')) return false;
  const git = deps.pullGit(repo.owner_login, repo.name);
  if ((await git.resolve(`refs/heads/${branch}`)) !== headSha) return false;
  try {
    await git.updateRef(`refs/heads/${branch}`, '0'.repeat(headSha.length), headSha);
  } catch {
    return false;
  }
  await publishRefMove(deps.branches, access, caller, branch, headSha, '0'.repeat(headSha.length));
  return true;
}

/**
 * Starts counting what merging `headSha` into `baseSha` brings (the commits collaboration last
 * stored for a pull) while the merge waits for its turn and resolves its repository: the count
 * is remembered by the two ids, so the merge finds it done or on its way when the refs still
 * hold them, and counts anew when they moved. Nothing is read back to the caller from it.
 */
export function countAheadEarly(deps: PullGitDeps, owner: string, name: string, baseSha: string, headSha: string): void {
  if (!isObjectId(baseSha) || !isObjectId(headSha)) return;
  try {
    deps.pullGit(owner, name).divergence(baseSha, headSha).catch(() => {});
  } catch {
    // An unsafe name: the merge itself refuses it.
  }
}

/** Points refs/pull/<index>/head at the pull's head so it outlives the head branch. */
export async function updatePullRef(deps: PullGitDeps, { repository: repo }: RepositoryAccess, index: number, head: string): Promise<string> {
  if (!Number.isSafeInteger(index) || index <= 0) throw invalid('pull index must be positive', 'invalid_index');
  const git = deps.pullGit(repo.owner_login, repo.name);
  const sha = await resolveSide(git, head, 'head');
  await git.setRef(`refs/pull/${index}/head`, sha);
  return sha;
}
