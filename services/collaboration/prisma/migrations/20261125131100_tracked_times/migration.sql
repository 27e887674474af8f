-- Tracked times and running stopwatches (Gitea's tracked_time and stopwatch).
-- CreateTable
CREATE TABLE "tracked_time" (
    "id" BIGSERIAL NOT NULL,
    "issue_id" BIGINT NOT NULL,
    "repository_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "time" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "tracked_time_pkey" PRIMARY KEY ("id")
);
-- CreateTable
CREATE TABLE "stopwatch" (
    "user_id" BIGINT NOT NULL,
    "issue_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "stopwatch_pkey" PRIMARY KEY ("user_id","issue_id")
);
-- CreateIndex
CREATE INDEX "tracked_time_issue_id_user_id_idx" ON "tracked_time"("issue_id", "user_id");
-- CreateIndex
CREATE INDEX "tracked_time_repository_id_id_idx" ON "tracked_time"("repository_id", "id");
-- CreateIndex
CREATE INDEX "tracked_time_user_id_id_idx" ON "tracked_time"("user_id", "id");
-- CreateIndex
CREATE INDEX "stopwatch_issue_id_idx" ON "stopwatch"("issue_id");
-- AddForeignKey
ALTER TABLE "tracked_time" ADD CONSTRAINT "tracked_time_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;
-- AddForeignKey
ALTER TABLE "stopwatch" ADD CONSTRAINT "stopwatch_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

