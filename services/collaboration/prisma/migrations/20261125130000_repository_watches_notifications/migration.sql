-- CreateTable
CREATE TABLE "repo_watch" (
    "repository_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "repo_watch_pkey" PRIMARY KEY ("repository_id","user_id")
);

-- CreateTable
CREATE TABLE "notification" (
    "id" BIGSERIAL NOT NULL,
    "user_id" BIGINT NOT NULL,
    "repository_id" BIGINT NOT NULL,
    "issue_id" BIGINT NOT NULL,
    "source" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'unread',
    "comment_id" BIGINT NOT NULL DEFAULT 0,
    "updated_by" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "notification_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "repo_watch_user_id_idx" ON "repo_watch"("user_id");

-- CreateIndex
CREATE INDEX "notification_user_id_updated_at_id_idx" ON "notification"("user_id", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "notification_user_id_status_updated_at_id_idx" ON "notification"("user_id", "status", "updated_at" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "notification_issue_id_idx" ON "notification"("issue_id");

-- CreateIndex
CREATE UNIQUE INDEX "notification_user_id_issue_id_key" ON "notification"("user_id", "issue_id");

-- AddForeignKey
ALTER TABLE "notification" ADD CONSTRAINT "notification_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

