-- CreateTable
CREATE TABLE "repository_migration" (
    "repository_id" BIGINT NOT NULL,
    "original_url" TEXT NOT NULL,
    "service" VARCHAR(16) NOT NULL,
    "is_mirror" BOOLEAN NOT NULL DEFAULT false,
    "mirror_interval" BIGINT NOT NULL DEFAULT 0,
    "mirror_updated_at" TIMESTAMPTZ(3),
    "next_sync_at" TIMESTAMPTZ(3),
    "last_error" TEXT NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "repository_migration_pkey" PRIMARY KEY ("repository_id")
);

-- CreateIndex
CREATE INDEX "repository_migration_is_mirror_next_sync_at_idx" ON "repository_migration"("is_mirror", "next_sync_at");
