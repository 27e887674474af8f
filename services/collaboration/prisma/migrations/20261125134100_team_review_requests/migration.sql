-- AlterTable
ALTER TABLE "pull_review" ADD COLUMN     "team" JSONB,
ADD COLUMN     "team_id" BIGINT NOT NULL DEFAULT 0;

