// The rules of a branch protection that apply to merging a pull request, not to a push
// (Gitea's services/pull/check.go CheckPullBranchProtections and models/issues/review.go):
// required status checks, required approvals (only whitelisted approvers count when an
// approvals whitelist is set; stale approvals do not count when stale approvals are dismissed
// or ignored), requested changes, official review requests, and an outdated head. Each
// refusal is Gitea's reason, answered 405. A pure rule over plain facts.
import { globMatch } from './glob.js';
import type { BranchProtection, Pusher } from './branch-protection.js';
import { atLeast } from './permission.js';

export interface ReviewVerdict {
  reviewerId: number;
  state: string;
  official: boolean;
  stale: boolean;
}

export interface MergeFacts {
  verdicts: readonly ReviewVerdict[];
  /** Teams of each approver in the owning organization, for a team approvals whitelist. */
  teamsOf?: (userId: number) => readonly string[];
  /** Latest state of each status context of the head commit. */
  statuses: ReadonlyArray<{ context: string; state: string }>;
  /** Commits on the base not on the head. */
  behind: number;
}

function approvalCounts(rule: BranchProtection, verdict: ReviewVerdict, teamsOf: MergeFacts['teamsOf']): boolean {
  if (verdict.state !== 'APPROVED') return false;
  if (verdict.stale && (rule.dismissStaleApprovals || rule.ignoreStaleApprovals)) return false;
  if (!rule.enableApprovalsWhitelist) return verdict.official;
  if (rule.approvalsWhitelistUserIds.includes(verdict.reviewerId)) return true;
  const listed = new Set(rule.approvalsWhitelistTeams.map((t) => t.toLowerCase()));
  return (teamsOf?.(verdict.reviewerId) ?? []).some((t) => listed.has(t.toLowerCase()));
}

/** Gitea's IsPullCommitStatusPass over the required contexts (globs); none set = every context. */
export function statusChecksPass(contexts: readonly string[], statuses: MergeFacts['statuses']): boolean {
  const required = contexts.length ? contexts : statuses.map((s) => s.context);
  if (!required.length) return true;
  return required.every((pattern) => {
    const matching = statuses.filter((s) => s.context === pattern || globMatch(pattern, s.context, ''));
    return matching.length > 0 && matching.every((s) => s.state === 'success' || s.state === 'warning' || s.state === 'skipped');
  });
}

/** The first rule that refuses the merge, as Gitea words it; undefined when none does. */
export function mergeRefusal(rule: BranchProtection | undefined, facts: MergeFacts): string | undefined {
  if (!rule) return undefined;
  if (rule.enableStatusCheck && !statusChecksPass(rule.statusCheckContexts, facts.statuses)) return 'Not all required status checks successful';
  const approvals = facts.verdicts.filter((v) => approvalCounts(rule, v, facts.teamsOf)).length;
  if (approvals < rule.requiredApprovals) return 'Does not have enough approvals';
  if (rule.blockOnRejectedReviews && facts.verdicts.some((v) => v.state === 'REQUEST_CHANGES' && v.official)) return 'There are requested changes';
  if (rule.blockOnOfficialReviewRequests && facts.verdicts.some((v) => v.state === 'REQUEST_REVIEW' && v.official)) return 'There are official review requests';
  if (rule.blockOnOutdatedBranch && facts.behind > 0) return 'The head branch is behind the base branch';
  return undefined;
}

/** Gitea's force_merge: repository admins skip the review and status rules unless the rule blocks it. */
export function mayOverride(rule: BranchProtection | undefined, pusher: Pusher, forceMerge: boolean): boolean {
  return forceMerge && atLeast(pusher.permission, 'admin') && !rule?.blockAdminMergeOverride;
}
