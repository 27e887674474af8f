-- CreateTable
CREATE TABLE "pull_review_comment" (
    "id" BIGSERIAL NOT NULL,
    "review_id" BIGINT NOT NULL,
    "issue_id" BIGINT NOT NULL,
    "poster_id" BIGINT NOT NULL,
    "path" TEXT NOT NULL,
    "line" INTEGER NOT NULL,
    "body" TEXT NOT NULL DEFAULT '',
    "commit_id" TEXT NOT NULL DEFAULT '',
    "original_commit_id" TEXT NOT NULL DEFAULT '',
    "diff_hunk" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pull_review_comment_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "pull_review_comment_review_id_id_idx" ON "pull_review_comment"("review_id", "id");

