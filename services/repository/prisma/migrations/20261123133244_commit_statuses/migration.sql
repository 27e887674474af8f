-- CreateTable
CREATE TABLE "commit_status" (
    "id" BIGSERIAL NOT NULL,
    "repository_id" BIGINT NOT NULL,
    "sha" VARCHAR(64) NOT NULL,
    "index" BIGINT NOT NULL,
    "state" VARCHAR(7) NOT NULL,
    "target_url" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "context" TEXT NOT NULL DEFAULT '',
    "context_hash" CHAR(40) NOT NULL,
    "creator_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "commit_status_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "commit_status_index" (
    "repository_id" BIGINT NOT NULL,
    "sha" VARCHAR(64) NOT NULL,
    "max_index" BIGINT NOT NULL,

    CONSTRAINT "commit_status_index_pkey" PRIMARY KEY ("repository_id","sha")
);

-- CreateIndex
CREATE INDEX "commit_status_repository_id_sha_context_hash_id_idx" ON "commit_status"("repository_id", "sha", "context_hash", "id");

-- CreateIndex
CREATE UNIQUE INDEX "commit_status_repository_id_sha_index_key" ON "commit_status"("repository_id", "sha", "index");
