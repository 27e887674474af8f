-- CreateTable
CREATE TABLE "issue_watch" (
    "issue_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "is_watching" BOOLEAN NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "issue_watch_pkey" PRIMARY KEY ("issue_id","user_id")
);

-- CreateIndex
CREATE INDEX "issue_watch_user_id_idx" ON "issue_watch"("user_id");

-- AddForeignKey
ALTER TABLE "issue_watch" ADD CONSTRAINT "issue_watch_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;
