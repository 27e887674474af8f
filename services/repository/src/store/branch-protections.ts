// Branch protection rules in PostgreSQL (table `branch_protection`).
import { alreadyExists } from '@anvil/kit';
import type { BranchProtection } from '../domain/branch-protection.js';
import type { BranchProtectionFields, BranchProtectionStore } from '../domain/branch-protection-store.js';
import { Prisma, type BranchProtection as Row } from './generated/client.js';
import { queryRows, type RepositoryDb } from './db.js';

const ids = (values: bigint[]) => values.map(Number);
const bigints = (values: number[]) => values.map((v) => BigInt(v));

function toProtection(row: Row): BranchProtection {
  return {
    id: Number(row.id),
    repositoryId: Number(row.repository_id),
    ruleName: row.rule_name,
    priority: Number(row.priority),
    enablePush: row.enable_push,
    enablePushWhitelist: row.enable_push_whitelist,
    pushWhitelistUserIds: ids(row.push_whitelist_user_ids),
    pushWhitelistTeams: row.push_whitelist_teams,
    pushWhitelistDeployKeys: row.push_whitelist_deploy_keys,
    enableForcePush: row.enable_force_push,
    enableForcePushAllowlist: row.enable_force_push_allowlist,
    forcePushAllowlistUserIds: ids(row.force_push_allowlist_user_ids),
    forcePushAllowlistTeams: row.force_push_allowlist_teams,
    forcePushAllowlistDeployKeys: row.force_push_allowlist_deploy_keys,
    enableMergeWhitelist: row.enable_merge_whitelist,
    mergeWhitelistUserIds: ids(row.merge_whitelist_user_ids),
    mergeWhitelistTeams: row.merge_whitelist_teams,
    enableStatusCheck: row.enable_status_check,
    statusCheckContexts: row.status_check_contexts,
    requiredApprovals: Number(row.required_approvals),
    enableApprovalsWhitelist: row.enable_approvals_whitelist,
    approvalsWhitelistUserIds: ids(row.approvals_whitelist_user_ids),
    approvalsWhitelistTeams: row.approvals_whitelist_teams,
    blockOnRejectedReviews: row.block_on_rejected_reviews,
    blockOnOfficialReviewRequests: row.block_on_official_review_requests,
    blockOnOutdatedBranch: row.block_on_outdated_branch,
    dismissStaleApprovals: row.dismiss_stale_approvals,
    ignoreStaleApprovals: row.ignore_stale_approvals,
    requireSignedCommits: row.require_signed_commits,
    protectedFilePatterns: row.protected_file_patterns,
    unprotectedFilePatterns: row.unprotected_file_patterns,
    blockAdminMergeOverride: row.block_admin_merge_override,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** A rule as PostgreSQL's row_to_json writes it (bigints as numbers, timestamps as text). */
export function protectionFromJson(json: Record<string, unknown>): BranchProtection {
  const date = (value: unknown) => new Date(String(value));
  return toProtection({ ...json, created_at: date(json.created_at), updated_at: date(json.updated_at) } as unknown as Row);
}

function toColumns(f: Partial<BranchProtectionFields>): Prisma.BranchProtectionUpdateInput {
  const data: Prisma.BranchProtectionUpdateInput = {};
  const set = <K extends keyof Prisma.BranchProtectionUpdateInput>(key: K, value: Prisma.BranchProtectionUpdateInput[K] | undefined) => {
    if (value !== undefined) data[key] = value;
  };
  set('rule_name', f.ruleName);
  set('priority', f.priority === undefined ? undefined : BigInt(f.priority));
  set('enable_push', f.enablePush);
  set('enable_push_whitelist', f.enablePushWhitelist);
  set('push_whitelist_user_ids', f.pushWhitelistUserIds && bigints(f.pushWhitelistUserIds));
  set('push_whitelist_teams', f.pushWhitelistTeams);
  set('push_whitelist_deploy_keys', f.pushWhitelistDeployKeys);
  set('enable_force_push', f.enableForcePush);
  set('enable_force_push_allowlist', f.enableForcePushAllowlist);
  set('force_push_allowlist_user_ids', f.forcePushAllowlistUserIds && bigints(f.forcePushAllowlistUserIds));
  set('force_push_allowlist_teams', f.forcePushAllowlistTeams);
  set('force_push_allowlist_deploy_keys', f.forcePushAllowlistDeployKeys);
  set('enable_merge_whitelist', f.enableMergeWhitelist);
  set('merge_whitelist_user_ids', f.mergeWhitelistUserIds && bigints(f.mergeWhitelistUserIds));
  set('merge_whitelist_teams', f.mergeWhitelistTeams);
  set('enable_status_check', f.enableStatusCheck);
  set('status_check_contexts', f.statusCheckContexts);
  set('required_approvals', f.requiredApprovals === undefined ? undefined : BigInt(f.requiredApprovals));
  set('enable_approvals_whitelist', f.enableApprovalsWhitelist);
  set('approvals_whitelist_user_ids', f.approvalsWhitelistUserIds && bigints(f.approvalsWhitelistUserIds));
  set('approvals_whitelist_teams', f.approvalsWhitelistTeams);
  set('block_on_rejected_reviews', f.blockOnRejectedReviews);
  set('block_on_official_review_requests', f.blockOnOfficialReviewRequests);
  set('block_on_outdated_branch', f.blockOnOutdatedBranch);
  set('dismiss_stale_approvals', f.dismissStaleApprovals);
  set('ignore_stale_approvals', f.ignoreStaleApprovals);
  set('require_signed_commits', f.requireSignedCommits);
  set('protected_file_patterns', f.protectedFilePatterns);
  set('unprotected_file_patterns', f.unprotectedFilePatterns);
  set('block_admin_merge_override', f.blockAdminMergeOverride);
  return data;
}

export function branchProtectionStore(db: RepositoryDb): BranchProtectionStore {
  return {
    async list(repositoryId) {
      // Read by every contents write and branch list: a prepared statement on the pool.
      const rows = await queryRows<{ rule: Record<string, unknown> }>(db, Prisma.sql`
        SELECT to_jsonb(b) AS rule FROM branch_protection b WHERE b.repository_id = ${BigInt(repositoryId)} ORDER BY b.priority, b.id`, 'list-branch-protections');
      return rows.map((row) => protectionFromJson(row.rule));
    },
    async find(repositoryId, ruleName) {
      const row = await db.branchProtection.findUnique({ where: { repository_id_rule_name: { repository_id: BigInt(repositoryId), rule_name: ruleName } } });
      return row ? toProtection(row) : undefined;
    },
    async insert(repositoryId, fields) {
      try {
        const row = await db.branchProtection.create({
          data: { ...(toColumns(fields) as Prisma.BranchProtectionCreateInput), rule_name: fields.ruleName, repository_id: BigInt(repositoryId) },
        });
        return toProtection(row);
      } catch (err) {
        if ((err as { code?: string }).code === 'P2002') throw alreadyExists('Branch protection already exist', 'branch_protection_exists');
        throw err;
      }
    },
    async update(id, fields) {
      return toProtection(await db.branchProtection.update({ where: { id: BigInt(id) }, data: toColumns(fields) }));
    },
    async remove(id) {
      await db.branchProtection.deleteMany({ where: { id: BigInt(id) } });
    },
    async loginsOf(userIds) {
      if (userIds.length === 0) return new Map();
      const rows = await db.owner.findMany({ where: { id: { in: bigints(userIds) } }, select: { id: true, name: true } });
      return new Map(rows.map((r) => [Number(r.id), r.name]));
    },
    async idsOf(logins) {
      if (logins.length === 0) return new Map();
      const rows = await db.owner.findMany({ where: { lower_name: { in: logins.map((l) => l.toLowerCase()) }, type: 'user' }, select: { id: true, lower_name: true } });
      return new Map(rows.map((r) => [r.lower_name, Number(r.id)]));
    },
    async teamNamesOf(orgId) {
      const rows = await db.orgTeam.findMany({ where: { org_id: BigInt(orgId) }, select: { name: true } });
      return new Map(rows.map((r) => [r.name.toLowerCase(), r.name]));
    },
  };
}
