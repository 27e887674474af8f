// Branch protection rules (Gitea's ProtectedBranch) and THE check every write path that
// moves a branch obeys: git push (the pre-receive hook, src/git-http/pre-receive.ts), branch
// deletion through the API, and later the contents API and merges. One function decides,
// so a rule means the same thing whichever way a change arrives.
import { isZeroId } from '@anvil/kit';
import { globMatch, isGlob } from './glob.js';
import { atLeast, type AccessMode } from './permission.js';

export interface BranchProtection {
  id: number;
  repositoryId: number;
  ruleName: string;
  priority: number;
  enablePush: boolean;
  enablePushWhitelist: boolean;
  pushWhitelistUserIds: number[];
  pushWhitelistTeams: string[];
  pushWhitelistDeployKeys: boolean;
  enableForcePush: boolean;
  enableForcePushAllowlist: boolean;
  forcePushAllowlistUserIds: number[];
  forcePushAllowlistTeams: string[];
  forcePushAllowlistDeployKeys: boolean;
  enableMergeWhitelist: boolean;
  mergeWhitelistUserIds: number[];
  mergeWhitelistTeams: string[];
  enableStatusCheck: boolean;
  statusCheckContexts: string[];
  requiredApprovals: number;
  enableApprovalsWhitelist: boolean;
  approvalsWhitelistUserIds: number[];
  approvalsWhitelistTeams: string[];
  blockOnRejectedReviews: boolean;
  blockOnOfficialReviewRequests: boolean;
  blockOnOutdatedBranch: boolean;
  dismissStaleApprovals: boolean;
  ignoreStaleApprovals: boolean;
  requireSignedCommits: boolean;
  /** `;`-separated globs, as Gitea stores them. */
  protectedFilePatterns: string;
  unprotectedFilePatterns: string;
  blockAdminMergeOverride: boolean;
  created_at: Date;
  updated_at: Date;
}

/** Whether a rule applies to a branch: plain names compare case-insensitively, globs use `/` as separator. */
export function ruleMatches(ruleName: string, branch: string): boolean {
  if (!isGlob(ruleName)) return ruleName.toLowerCase() === branch.toLowerCase();
  return globMatch(ruleName, branch, '/');
}

/**
 * Rules in the order they are tried: by priority (lower first), a plain branch name before a
 * glob of the same priority (the most specific rule), then oldest first.
 */
export function sortRules<T extends Pick<BranchProtection, 'ruleName' | 'priority' | 'id'>>(rules: readonly T[]): T[] {
  return [...rules].sort((a, b) =>
    a.priority - b.priority
    || Number(isGlob(a.ruleName)) - Number(isGlob(b.ruleName))
    || a.id - b.id);
}

/** The rule that governs `branch`, if any (Gitea's GetFirstMatchProtectedBranchRule). */
export function ruleFor<T extends Pick<BranchProtection, 'ruleName' | 'priority' | 'id'>>(rules: readonly T[], branch: string): T | undefined {
  return sortRules(rules).find((r) => ruleMatches(r.ruleName, branch));
}

/** Gitea's GetProtectedFilePatterns/GetUnprotectedFilePatterns: `;`-separated, blanks dropped. */
export function filePatterns(value: string): string[] {
  return value.split(';').map((p) => p.trim()).filter(Boolean);
}

/** A path matching one of the patterns (`*` stops at `.` and `/`, as Gitea compiles them). */
export function matchingPath(patterns: string[], paths: readonly string[]): string | undefined {
  if (patterns.length === 0) return undefined;
  return paths.find((path) => patterns.some((p) => globMatch(p, path, './')));
}

/** Who is writing: their id, their permission on the repository and their teams in its owner. */
export interface Pusher {
  id: number;
  login: string;
  permission: AccessMode;
  /** Names of the pusher's teams in the owning organization (org-access.ts pusherTeamNames). */
  teams?: readonly string[];
}

/**
 * Whether one of the pusher's teams is on a whitelist. Team names are unique ignoring case
 * (Gitea resolves whitelisted names to team ids through their lower-cased name).
 */
function inTeams(whitelist: readonly string[], pusher: Pusher): boolean {
  if (whitelist.length === 0 || !pusher.teams?.length) return false;
  const listed = new Set(whitelist.map((t) => t.toLowerCase()));
  return pusher.teams.some((t) => listed.has(t.toLowerCase()));
}

/** Gitea's CanUserPush: push enabled, and either no whitelist (write access suffices) or on it. */
export function canUserPush(rule: BranchProtection, pusher: Pusher): boolean {
  if (!rule.enablePush || !atLeast(pusher.permission, 'write')) return false;
  if (!rule.enablePushWhitelist) return true;
  return rule.pushWhitelistUserIds.includes(pusher.id) || inTeams(rule.pushWhitelistTeams, pusher);
}

/** Gitea's CanUserForcePush: force pushes enabled, and either no allowlist or on it. */
export function canUserForcePush(rule: BranchProtection, pusher: Pusher): boolean {
  if (!rule.enableForcePush) return false;
  if (!rule.enableForcePushAllowlist) return true;
  return rule.forcePushAllowlistUserIds.includes(pusher.id) || inTeams(rule.forcePushAllowlistTeams, pusher);
}

/** Gitea's merge whitelist check (for user_can_merge). */
export function canUserMerge(rule: BranchProtection | undefined, pusher: Pusher): boolean {
  if (!atLeast(pusher.permission, 'write')) return false;
  if (!rule || !rule.enableMergeWhitelist) return true;
  return rule.mergeWhitelistUserIds.includes(pusher.id) || inTeams(rule.mergeWhitelistTeams, pusher);
}

/**
 * What the check needs to know about the commits, asked lazily so a push the rules let
 * through cheaply never runs git: the pre-receive hook answers from the quarantined
 * objects of the push, the contents API from the commit it is about to write.
 */
export interface PushGitFacts {
  /** Whether `oldSha` is an ancestor of `newSha` (false means a force push). */
  isAncestor(oldSha: string, newSha: string): Promise<boolean>;
  /** Paths changed between the two commits. */
  changedFiles(oldSha: string, newSha: string): Promise<string[]>;
  /**
   * The first commit reachable from newSha but not from oldSha (or from any of the
   * repository's refs) that is unsigned or whose signature does not verify against the
   * committer's GPG keys held by identity.
   */
  firstUnverifiedCommit(oldSha: string, newSha: string): Promise<string | undefined>;
}

export interface ProtectedPushInput {
  /** The branch's rules (all of the repository's; the governing one is picked here). */
  rules: readonly BranchProtection[];
  defaultBranch: string;
  branch: string;
  pusher: Pusher;
  oldSha: string;
  newSha: string;
  /** Known up front by the contents API; else asked from `git`. */
  changedFiles?: string[];
}

export type PushDecision = { allowed: true } | { allowed: false; message: string; reason: string };

/**
 * Decides whether `pusher` may move `branch` from oldSha to newSha (all zeros = create or
 * delete), with Gitea's messages (routers/private/hook_pre_receive.go preReceiveBranch):
 * - the default branch cannot be deleted;
 * - a protected branch cannot be deleted;
 * - a non-fast-forward update is refused unless the rule allows force pushes for the pusher;
 * - require_signed_commits refuses new commits that are unsigned or whose signature does not
 *   verify against the committer's keys (identity's GpgKeyService, behind `firstUnverifiedCommit`);
 * - a change to a protected file is refused for everyone, whitelisted or not;
 * - otherwise the pusher must be allowed to push (enable_push, whitelist), except when
 *   every changed file matches unprotected_file_patterns.
 */
export async function checkProtectedPush(input: ProtectedPushInput, git: PushGitFacts): Promise<PushDecision> {
  const { branch, oldSha, newSha, pusher } = input;
  const refuse = (message: string, reason: string): PushDecision => ({ allowed: false, message, reason });
  if (isZeroId(newSha) && branch === input.defaultBranch) {
    return refuse(`branch ${branch} is the default branch and cannot be deleted`, 'branch_is_default');
  }
  const rule = ruleFor(input.rules, branch);
  if (!rule) return { allowed: true };
  if (isZeroId(newSha)) return refuse(`branch ${branch} is protected from deletion`, 'branch_protected');
  const isNew = isZeroId(oldSha);

  if (!isNew && !(await git.isAncestor(oldSha, newSha)) && !canUserForcePush(rule, pusher)) {
    return refuse(`branch ${branch} is protected from force push`, 'protected_force_push');
  }
  if (rule.requireSignedCommits) {
    const unverified = await git.firstUnverifiedCommit(oldSha, newSha);
    if (unverified) return refuse(`branch ${branch} is protected from unverified commit ${unverified}`, 'protected_unsigned_commit');
  }
  let changed = input.changedFiles;
  const changedFiles = async () => (changed ??= isNew ? [] : await git.changedFiles(oldSha, newSha));
  const protectedPath = matchingPath(filePatterns(rule.protectedFilePatterns), await changedFiles());
  if (protectedPath) return refuse(`branch ${branch} is protected from changing file ${protectedPath}`, 'protected_file');

  if (canUserPush(rule, pusher)) return { allowed: true };
  // Gitea lets a push through when every file it touches is explicitly unprotected.
  const unprotected = filePatterns(rule.unprotectedFilePatterns);
  const files = await changedFiles();
  if (unprotected.length > 0 && files.length > 0 && files.every((f) => matchingPath(unprotected, [f]))) return { allowed: true };
  return refuse(`Not allowed to push to protected branch ${branch}`, 'protected_branch');
}
