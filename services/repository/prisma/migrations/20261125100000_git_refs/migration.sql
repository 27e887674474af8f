-- CreateTable
CREATE TABLE "git_ref" (
    "repository_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "object_id" VARCHAR(64) NOT NULL,
    "object_type" VARCHAR(6) NOT NULL,
    "commit_id" VARCHAR(64),
    "message" TEXT NOT NULL DEFAULT '',
    "author_name" TEXT NOT NULL DEFAULT '',
    "author_email" TEXT NOT NULL DEFAULT '',
    "author_time" BIGINT NOT NULL DEFAULT 0,
    "committer_name" TEXT NOT NULL DEFAULT '',
    "committer_email" TEXT NOT NULL DEFAULT '',
    "committer_time" BIGINT NOT NULL DEFAULT 0,
    "tag_message" TEXT NOT NULL DEFAULT '',
    "tagger_name" TEXT NOT NULL DEFAULT '',
    "tagger_email" TEXT NOT NULL DEFAULT '',
    "tagger_time" BIGINT NOT NULL DEFAULT 0,
    "creator_time" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "git_ref_pkey" PRIMARY KEY ("repository_id","name")
);

-- CreateTable
CREATE TABLE "git_ref_state" (
    "repository_id" BIGINT NOT NULL,
    "version" BIGINT NOT NULL DEFAULT 1,
    "synced_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "git_ref_state_pkey" PRIMARY KEY ("repository_id")
);

-- AddForeignKey
ALTER TABLE "git_ref" ADD CONSTRAINT "git_ref_repository_id_fkey" FOREIGN KEY ("repository_id") REFERENCES "repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "git_ref_state" ADD CONSTRAINT "git_ref_state_repository_id_fkey" FOREIGN KEY ("repository_id") REFERENCES "repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;

