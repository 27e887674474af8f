-- CreateTable
CREATE TABLE "pull_auto_merge" (
    "id" BIGSERIAL NOT NULL,
    "issue_id" BIGINT NOT NULL,
    "repository_id" BIGINT NOT NULL,
    "doer_id" BIGINT NOT NULL,
    "doer_login" TEXT NOT NULL,
    "style" TEXT NOT NULL,
    "message" TEXT NOT NULL DEFAULT '',
    "delete_branch_after_merge" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pull_auto_merge_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "pull_auto_merge_issue_id_key" ON "pull_auto_merge"("issue_id");

-- CreateIndex
CREATE INDEX "pull_auto_merge_repository_id_idx" ON "pull_auto_merge"("repository_id");

