// anvil.repository.v1.BranchService: decode the request, call the domain, encode the reply.
import type { CallContext, ServiceImplementation } from '@anvil/kit';
import { loadAnvilGrpc, type repository } from '@anvil/proto';
import {
  createBranchProtection, deleteBranchProtection, editBranchProtection, getBranchProtection, listBranchProtections,
  DEFAULT_PROTECTION, updateBranchProtectionPriorities, type BranchProtectionInput, type BranchProtectionView, type ProtectionDeps,
} from '../domain/branch-protections.js';
import type { RepositoryWriteLock } from '../domain/write-lock.js';
import { createBranch, deleteBranch, getBranch, listBranches, renameBranch, updateBranch, type BranchDeps, type BranchView } from '../domain/branches.js';
import { timestamp } from './messages.js';
import { repositoryRead, type ReadAccessDeps } from './read-access.js';
import { pageOf, refOf, repositoryOf } from './requests.js';

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
  const repo = (ref: repository.RepositoryRef, context: CallContext) => repositoryOf(deps.store, ref, context);
  return {
    async ListBranches(request, context) {
      const { offset, limit } = pageOf(request.page);
      // Branch reads bring the protection rules and the caller's teams in the refs statement.
      const { items, total } = await repositoryRead(deps, refOf(request), context, (access) => listBranches(deps, access, context.caller, offset, limit), { protections: true });
      return { branches: items.map(branchMessage), total };
    },
    async GetBranch(request, context) {
      const needs = { protections: true, only: `refs/heads/${request.branch}` };
      return branchMessage(await repositoryRead(deps, refOf(request), context, (access) => getBranch(deps, access, request.branch, context.caller), needs));
    },
    async CreateBranch(request, context) {
      const ref = refOf(request);
      return branchMessage(await locked(ref.owner, ref.name, context.signal, async () => createBranch(deps, await repo(ref, context), {
        newBranchName: request.new_branch_name, oldBranchName: request.old_branch_name, oldRefName: request.old_ref_name,
      }, context.caller)));
    },
    async DeleteBranch(request, context) {
      const ref = refOf(request);
      await locked(ref.owner, ref.name, context.signal, async () => deleteBranch(deps, await repo(ref, context), request.branch, context.caller));
      return {};
    },
    async RenameBranch(request, context) {
      const ref = refOf(request);
      await locked(ref.owner, ref.name, context.signal, async () => renameBranch(deps, await repo(ref, context), request.branch, request.name, context.caller));
      return {};
    },
    async UpdateBranch(request, context) {
      const ref = refOf(request);
      const input = { newCommitId: request.new_commit_id, oldCommitId: request.old_commit_id, force: request.force };
      await locked(ref.owner, ref.name, context.signal, async () => updateBranch(deps, await repo(ref, context), request.branch, input, context.caller));
      return {};
    },
    async UpdateBranchProtectionPriorities(request, context) {
      await updateBranchProtectionPriorities(deps, await repo(refOf(request), context), request.ids.map(Number));
      return {};
    },
    async ListBranchProtections(request, context) {
      return { protections: (await listBranchProtections(deps, await repo(request, context))).map(protectionMessage) };
    },
    async GetBranchProtection(request, context) {
      return protectionMessage(await getBranchProtection(deps, await repo(refOf(request), context), request.name));
    },
    async CreateBranchProtection(request, context) {
      const input = { ...DEFAULT_PROTECTION, ...protectionInput(request.protection) };
      return protectionMessage(await createBranchProtection(deps, await repo(refOf(request), context), input));
    },
    async EditBranchProtection(request, context) {
      return protectionMessage(await editBranchProtection(deps, await repo(refOf(request), context), request.name, protectionInput(request.protection, request.present)));
    },
    async DeleteBranchProtection(request, context) {
      await deleteBranchProtection(deps, await repo(refOf(request), context), request.name);
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
