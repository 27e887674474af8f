-- CreateTable
CREATE TABLE "push_mirror" (
    "id" BIGSERIAL NOT NULL,
    "repository_id" BIGINT NOT NULL,
    "remote_name" VARCHAR(64) NOT NULL,
    "remote_address" TEXT NOT NULL,
    "interval" BIGINT NOT NULL DEFAULT 0,
    "sync_on_commit" BOOLEAN NOT NULL DEFAULT true,
    "last_update_at" TIMESTAMPTZ(3),
    "next_sync_at" TIMESTAMPTZ(3),
    "last_error" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "push_mirror_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "push_mirror_repository_id_remote_name_key" ON "push_mirror"("repository_id", "remote_name");

-- CreateIndex
CREATE INDEX "push_mirror_next_sync_at_idx" ON "push_mirror"("next_sync_at");
