-- AlterTable
ALTER TABLE "issue_index" ADD COLUMN     "counts_version" BIGINT NOT NULL DEFAULT 0;

