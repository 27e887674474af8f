-- Pulls from forks: who owned the head repository, and finding a fork's pulls on its push.
ALTER TABLE "pull_request" ADD COLUMN "head_owner_login" TEXT NOT NULL DEFAULT '';

CREATE INDEX "pull_request_head_repo_id_head_branch_idx" ON "pull_request"("head_repo_id", "head_branch");
