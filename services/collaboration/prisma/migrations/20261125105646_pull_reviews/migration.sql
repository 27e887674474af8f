-- CreateTable
CREATE TABLE "pull_review" (
    "id" BIGSERIAL NOT NULL,
    "issue_id" BIGINT NOT NULL,
    "reviewer_id" BIGINT NOT NULL,
    "state" TEXT NOT NULL,
    "body" TEXT NOT NULL DEFAULT '',
    "commit_id" TEXT NOT NULL DEFAULT '',
    "official" BOOLEAN NOT NULL DEFAULT false,
    "stale" BOOLEAN NOT NULL DEFAULT false,
    "dismissed" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "pull_review_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "pull_review_issue_id_id_idx" ON "pull_review"("issue_id", "id");
