-- AlterTable
ALTER TABLE "owner" ADD COLUMN     "profile" JSONB;
