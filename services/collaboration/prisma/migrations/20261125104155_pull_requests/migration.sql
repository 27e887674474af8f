-- CreateTable
CREATE TABLE "pull_request" (
    "issue_id" BIGINT NOT NULL,
    "repository_id" BIGINT NOT NULL,
    "base_branch" TEXT NOT NULL,
    "head_branch" TEXT NOT NULL,
    "head_repo_id" BIGINT NOT NULL,
    "head_sha" TEXT NOT NULL,
    "merge_base" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'checking',
    "conflicted_files" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "additions" INTEGER NOT NULL DEFAULT 0,
    "deletions" INTEGER NOT NULL DEFAULT 0,
    "changed_files" INTEGER NOT NULL DEFAULT 0,
    "has_merged" BOOLEAN NOT NULL DEFAULT false,
    "merged_at" TIMESTAMPTZ(3),
    "merged_by_id" BIGINT,
    "merge_commit_sha" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "pull_request_pkey" PRIMARY KEY ("issue_id")
);

-- CreateIndex
CREATE INDEX "pull_request_repository_id_head_branch_idx" ON "pull_request"("repository_id", "head_branch");

-- CreateIndex
CREATE INDEX "pull_request_repository_id_base_branch_idx" ON "pull_request"("repository_id", "base_branch");
