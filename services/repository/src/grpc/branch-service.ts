// anvil.repository.v1.BranchService: decode the request, call the domain, encode the reply.
import type { ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import {
  createBranchProtection, deleteBranchProtection, editBranchProtection, getBranchProtection, listBranchProtections,
  DEFAULT_PROTECTION, updateBranchProtectionPriorities, type BranchProtectionInput, type BranchProtectionView, type ProtectionDeps,
} from '../domain/branch-protections.js';
import type { RepositoryWriteLock } from '../domain/write-lock.js';
import { createBranch, deleteBranch, getBranch, listBranches, renameBranch, updateBranch, type BranchDeps, type BranchView } from '../domain/branches.js';
import { timestamp } from './messages.js';
import { readWithScope, type ReadAccessDeps } from './read-access.js';
import { pageOf, refOf } from './requests.js';

export const BRANCH_SERVICE_NAME = 'anvil.repository.v1.BranchService';

function branchMessage(view: BranchView): repository.BranchInput {
  const { head, rule } = view;
  return {
    name: head.name,
    commit: {
      id: head.sha,
      message: head.message,
      author: { name: head.authorName, email: head.authorEmail, when: timestamp(new Date(head.authorTime * 1000)) },
      committer: { name: head.committerName, email: head.committerEmail, when: timestamp(new Date(head.committerTime * 1000)) },
      timestamp: timestamp(new Date(head.committerTime * 1000)),
      added: [], removed: [], modified: [],
    },
    protected: Boolean(rule),
    required_approvals: rule?.requiredApprovals ?? 0,
    enable_status_check: rule?.enableStatusCheck ?? false,
    status_check_contexts: rule?.statusCheckContexts ?? [],
    user_can_push: view.userCanPush,
    user_can_merge: view.userCanMerge,
    effective_branch_protection_name: rule?.ruleName ?? '',
  };
}

/** Proto field name → domain field name, for PATCH's `present` list. */
const FIELDS: Record<string, keyof BranchProtectionInput> = {
  rule_name: 'ruleName', priority: 'priority', enable_push: 'enablePush', enable_push_whitelist: 'enablePushWhitelist',
  push_whitelist_usernames: 'pushWhitelistUsernames', push_whitelist_teams: 'pushWhitelistTeams', push_whitelist_deploy_keys: 'pushWhitelistDeployKeys',
  enable_force_push: 'enableForcePush', enable_force_push_allowlist: 'enableForcePushAllowlist',
  force_push_allowlist_usernames: 'forcePushAllowlistUsernames', force_push_allowlist_teams: 'forcePushAllowlistTeams',
  force_push_allowlist_deploy_keys: 'forcePushAllowlistDeployKeys', enable_merge_whitelist: 'enableMergeWhitelist',
  merge_whitelist_usernames: 'mergeWhitelistUsernames', merge_whitelist_teams: 'mergeWhitelistTeams', enable_status_check: 'enableStatusCheck',
  status_check_contexts: 'statusCheckContexts', required_approvals: 'requiredApprovals', enable_approvals_whitelist: 'enableApprovalsWhitelist',
  approvals_whitelist_username: 'approvalsWhitelistUsernames', approvals_whitelist_teams: 'approvalsWhitelistTeams',
  block_on_rejected_reviews: 'blockOnRejectedReviews', block_on_official_review_requests: 'blockOnOfficialReviewRequests',
  block_on_outdated_branch: 'blockOnOutdatedBranch', dismiss_stale_approvals: 'dismissStaleApprovals', ignore_stale_approvals: 'ignoreStaleApprovals',
  require_signed_commits: 'requireSignedCommits', protected_file_patterns: 'protectedFilePatterns',
  unprotected_file_patterns: 'unprotectedFilePatterns', block_admin_merge_override: 'blockAdminMergeOverride',
};

function protectionInput(message: repository.BranchProtection | null | undefined, present?: string[]): Partial<BranchProtectionInput> {
  const out: Record<string, unknown> = {};
  const m = (message ?? {}) as unknown as Record<string, unknown>;
  for (const [wire, field] of Object.entries(FIELDS)) {
    if (present && !present.includes(wire)) continue;
    if (m[wire] !== undefined) out[field] = m[wire];
  }
  return out as Partial<BranchProtectionInput>;
}

function protectionMessage(view: BranchProtectionView): repository.BranchProtectionInput {
  const { rule } = view;
  return {
    rule_name: rule.ruleName, priority: rule.priority, enable_push: rule.enablePush, enable_push_whitelist: rule.enablePushWhitelist,
    push_whitelist_usernames: view.pushWhitelistUsernames, push_whitelist_teams: rule.pushWhitelistTeams, push_whitelist_deploy_keys: rule.pushWhitelistDeployKeys,
    enable_force_push: rule.enableForcePush, enable_force_push_allowlist: rule.enableForcePushAllowlist,
    force_push_allowlist_usernames: view.forcePushAllowlistUsernames, force_push_allowlist_teams: rule.forcePushAllowlistTeams,
    force_push_allowlist_deploy_keys: rule.forcePushAllowlistDeployKeys, enable_merge_whitelist: rule.enableMergeWhitelist,
    merge_whitelist_usernames: view.mergeWhitelistUsernames, merge_whitelist_teams: rule.mergeWhitelistTeams,
    enable_status_check: rule.enableStatusCheck, status_check_contexts: rule.statusCheckContexts, required_approvals: rule.requiredApprovals,
    enable_approvals_whitelist: rule.enableApprovalsWhitelist, approvals_whitelist_username: view.approvalsWhitelistUsernames,
    approvals_whitelist_teams: rule.approvalsWhitelistTeams, block_on_rejected_reviews: rule.blockOnRejectedReviews,
    block_on_official_review_requests: rule.blockOnOfficialReviewRequests, block_on_outdated_branch: rule.blockOnOutdatedBranch,
    dismiss_stale_approvals: rule.dismissStaleApprovals, ignore_stale_approvals: rule.ignoreStaleApprovals,
    require_signed_commits: rule.requireSignedCommits, protected_file_patterns: rule.protectedFilePatterns,
    unprotected_file_patterns: rule.unprotectedFilePatterns, block_admin_merge_override: rule.blockAdminMergeOverride,
    created_at: timestamp(rule.created_at), updated_at: timestamp(rule.updated_at), id: rule.id,
  };
}

/** Branch writes take the repository's turn with pushes and contents writes (domain/write-lock.ts). */
type LockedDeps = BranchDeps & ProtectionDeps & ReadAccessDeps & { writeLock: RepositoryWriteLock };

export function branchService(deps: LockedDeps): ServiceImplementation<repository.BranchServiceHandlers> {
  const locked = <T>(owner: string, name: string, signal: AbortSignal, work: () => Promise<T>) => deps.writeLock.run(owner, name, work, signal);
  return {
    async ListBranches(request, { caller, repository: scope }) {
      const ref = refOf(request);
      const { offset, limit } = pageOf(request.page);
      const { items, total } = await readWithScope(deps, scope, ref, caller, (known) => listBranches(deps, ref.owner, ref.name, caller, offset, limit, known), { protections: true });
      return { branches: items.map(branchMessage), total };
    },
    async GetBranch(request, { caller, repository: scope }) {
      const ref = refOf(request);
      const only = `refs/heads/${request.branch}`;
      return branchMessage(await readWithScope(deps, scope, ref, caller, (known) => getBranch(deps, ref.owner, ref.name, request.branch, caller, known), { protections: true, only }));
    },
    async CreateBranch(request, { caller, signal }) {
      const { owner, name } = refOf(request);
      return branchMessage(await locked(owner, name, signal, () => createBranch(deps, owner, name, {
        newBranchName: request.new_branch_name, oldBranchName: request.old_branch_name, oldRefName: request.old_ref_name,
      }, caller)));
    },
    async DeleteBranch(request, { caller, signal }) {
      const { owner, name } = refOf(request);
      await locked(owner, name, signal, () => deleteBranch(deps, owner, name, request.branch, caller));
      return {};
    },
    async RenameBranch(request, { caller, signal }) {
      const { owner, name } = refOf(request);
      await locked(owner, name, signal, () => renameBranch(deps, owner, name, request.branch, request.name, caller));
      return {};
    },
    async UpdateBranch(request, { caller, signal }) {
      const { owner, name } = refOf(request);
      const input = { newCommitId: request.new_commit_id, oldCommitId: request.old_commit_id, force: request.force };
      await locked(owner, name, signal, () => updateBranch(deps, owner, name, request.branch, input, caller));
      return {};
    },
    async UpdateBranchProtectionPriorities(request, { caller }) {
      const { owner, name } = refOf(request);
      await updateBranchProtectionPriorities(deps, owner, name, request.ids.map(Number), caller);
      return {};
    },
    async ListBranchProtections(request, { caller }) {
      return { protections: (await listBranchProtections(deps, request.owner, request.name, caller)).map(protectionMessage) };
    },
    async GetBranchProtection(request, { caller }) {
      const { owner, name } = refOf(request);
      return protectionMessage(await getBranchProtection(deps, owner, name, request.name, caller));
    },
    async CreateBranchProtection(request, { caller }) {
      const { owner, name } = refOf(request);
      const input = { ...DEFAULT_PROTECTION, ...protectionInput(request.protection) };
      return protectionMessage(await createBranchProtection(deps, owner, name, input, caller));
    },
    async EditBranchProtection(request, { caller }) {
      const { owner, name } = refOf(request);
      return protectionMessage(await editBranchProtection(deps, owner, name, request.name, protectionInput(request.protection, request.present), caller));
    },
    async DeleteBranchProtection(request, { caller }) {
      const { owner, name } = refOf(request);
      await deleteBranchProtection(deps, owner, name, request.name, caller);
      return {};
    },
  };
}

export function branchGrpcService(deps: LockedDeps) {
  return {
    name: BRANCH_SERVICE_NAME,
    definition: loadAnvilGrpc().anvil.repository.v1.BranchService.service,
    implementation: branchService(deps),
  };
}
