-- CreateTable
CREATE TABLE "branch_protection" (
    "id" BIGSERIAL NOT NULL,
    "repository_id" BIGINT NOT NULL,
    "rule_name" TEXT NOT NULL,
    "priority" BIGINT NOT NULL DEFAULT 0,
    "enable_push" BOOLEAN NOT NULL DEFAULT false,
    "enable_push_whitelist" BOOLEAN NOT NULL DEFAULT false,
    "push_whitelist_user_ids" BIGINT[],
    "push_whitelist_teams" TEXT[],
    "push_whitelist_deploy_keys" BOOLEAN NOT NULL DEFAULT false,
    "enable_force_push" BOOLEAN NOT NULL DEFAULT false,
    "enable_force_push_allowlist" BOOLEAN NOT NULL DEFAULT false,
    "force_push_allowlist_user_ids" BIGINT[],
    "force_push_allowlist_teams" TEXT[],
    "force_push_allowlist_deploy_keys" BOOLEAN NOT NULL DEFAULT false,
    "enable_merge_whitelist" BOOLEAN NOT NULL DEFAULT false,
    "merge_whitelist_user_ids" BIGINT[],
    "merge_whitelist_teams" TEXT[],
    "enable_status_check" BOOLEAN NOT NULL DEFAULT false,
    "status_check_contexts" TEXT[],
    "required_approvals" BIGINT NOT NULL DEFAULT 0,
    "enable_approvals_whitelist" BOOLEAN NOT NULL DEFAULT false,
    "approvals_whitelist_user_ids" BIGINT[],
    "approvals_whitelist_teams" TEXT[],
    "block_on_rejected_reviews" BOOLEAN NOT NULL DEFAULT false,
    "block_on_official_review_requests" BOOLEAN NOT NULL DEFAULT false,
    "block_on_outdated_branch" BOOLEAN NOT NULL DEFAULT false,
    "dismiss_stale_approvals" BOOLEAN NOT NULL DEFAULT false,
    "ignore_stale_approvals" BOOLEAN NOT NULL DEFAULT false,
    "require_signed_commits" BOOLEAN NOT NULL DEFAULT false,
    "protected_file_patterns" TEXT NOT NULL DEFAULT '',
    "unprotected_file_patterns" TEXT NOT NULL DEFAULT '',
    "block_admin_merge_override" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "branch_protection_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "branch_protection_repository_id_rule_name_key" ON "branch_protection"("repository_id", "rule_name");
