-- A repository's mirror fields and migration status move onto the repository row, so every
-- read of a repository (lists and searches too) reports them without another query; the
-- migration row keeps the sync schedule and a running clone's progress.

-- AlterTable
ALTER TABLE "repository" ADD COLUMN     "mirror" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "mirror_interval" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "mirror_updated_at" TIMESTAMPTZ(3),
ADD COLUMN     "original_url" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "status" VARCHAR(16) NOT NULL DEFAULT 'ready';

-- Existing migrations keep what they said.
UPDATE "repository" r SET "mirror" = m."is_mirror", "mirror_interval" = m."mirror_interval",
  "mirror_updated_at" = m."mirror_updated_at", "original_url" = m."original_url"
FROM "repository_migration" m WHERE m."repository_id" = r."id";

-- DropIndex
DROP INDEX "repository_migration_is_mirror_next_sync_at_idx";

-- AlterTable
ALTER TABLE "repository_migration" DROP COLUMN "is_mirror",
DROP COLUMN "mirror_interval",
DROP COLUMN "mirror_updated_at",
DROP COLUMN "original_url",
ADD COLUMN     "progress" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "progress_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP;

-- CreateIndex
CREATE INDEX "repository_migration_next_sync_at_idx" ON "repository_migration"("next_sync_at");
