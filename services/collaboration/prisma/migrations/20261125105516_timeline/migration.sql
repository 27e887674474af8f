-- AlterTable
ALTER TABLE "comment" ADD COLUMN     "data" JSONB;
