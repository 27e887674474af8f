// Branches and branch protection rules as Gitea's JSON (services/convert ToBranch,
// ToBranchProtection). Whitelists are user logins and team names.
import type { repository } from '@anvil/proto';
import { formatTime } from './time.js';

function payloadUser(who: repository.CommitIdentity | null | undefined) {
  return { name: who?.name ?? '', email: who?.email ?? '', username: '' };
}

/** `repoUrl` is the repository's html_url (`<ROOT_URL><owner>/<name>`). */
export function presentBranch(branch: repository.Branch, repoUrl: string) {
  const commit = branch.commit;
  return {
    name: branch.name,
    commit: {
      id: commit?.id ?? '',
      message: commit?.message ?? '',
      url: `${repoUrl}/commit/${commit?.id ?? ''}`,
      author: payloadUser(commit?.author),
      committer: payloadUser(commit?.committer),
      timestamp: formatTime(commit?.timestamp),
      added: commit?.added ?? [],
      removed: commit?.removed ?? [],
      modified: commit?.modified ?? [],
    },
    protected: branch.protected,
    required_approvals: branch.required_approvals,
    enable_status_check: branch.enable_status_check,
    status_check_contexts: branch.status_check_contexts,
    user_can_push: branch.user_can_push,
    user_can_merge: branch.user_can_merge,
    effective_branch_protection_name: branch.effective_branch_protection_name,
  };
}

const isGlob = (name: string) => /[*?[\]{}\\]/.test(name);

export function presentBranchProtection(p: repository.BranchProtection) {
  return {
    // Deprecated: Gitea fills it only for a rule that is a plain branch name.
    branch_name: isGlob(p.rule_name) ? '' : p.rule_name,
    rule_name: p.rule_name,
    priority: p.priority,
    enable_push: p.enable_push,
    enable_push_whitelist: p.enable_push_whitelist,
    push_whitelist_usernames: p.push_whitelist_usernames,
    push_whitelist_teams: p.push_whitelist_teams,
    push_whitelist_deploy_keys: p.push_whitelist_deploy_keys,
    enable_force_push: p.enable_force_push,
    enable_force_push_allowlist: p.enable_force_push_allowlist,
    force_push_allowlist_usernames: p.force_push_allowlist_usernames,
    force_push_allowlist_teams: p.force_push_allowlist_teams,
    force_push_allowlist_deploy_keys: p.force_push_allowlist_deploy_keys,
    enable_merge_whitelist: p.enable_merge_whitelist,
    merge_whitelist_usernames: p.merge_whitelist_usernames,
    merge_whitelist_teams: p.merge_whitelist_teams,
    enable_status_check: p.enable_status_check,
    status_check_contexts: p.status_check_contexts,
    required_approvals: p.required_approvals,
    enable_approvals_whitelist: p.enable_approvals_whitelist,
    approvals_whitelist_username: p.approvals_whitelist_username,
    approvals_whitelist_teams: p.approvals_whitelist_teams,
    // Gitea 1.27's bypass allowlist is not modelled yet: always off and empty.
    enable_bypass_allowlist: false,
    bypass_allowlist_usernames: [],
    bypass_allowlist_teams: [],
    block_on_rejected_reviews: p.block_on_rejected_reviews,
    block_on_official_review_requests: p.block_on_official_review_requests,
    block_on_outdated_branch: p.block_on_outdated_branch,
    dismiss_stale_approvals: p.dismiss_stale_approvals,
    ignore_stale_approvals: p.ignore_stale_approvals,
    require_signed_commits: p.require_signed_commits,
    protected_file_patterns: p.protected_file_patterns,
    unprotected_file_patterns: p.unprotected_file_patterns,
    block_admin_merge_override: p.block_admin_merge_override,
    created_at: formatTime(p.created_at),
    updated_at: formatTime(p.updated_at),
  };
}
