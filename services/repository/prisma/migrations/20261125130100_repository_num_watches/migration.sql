-- AlterTable
ALTER TABLE "repository" ADD COLUMN     "num_watches" INTEGER NOT NULL DEFAULT 0;
