-- AlterTable
ALTER TABLE "repository" ADD COLUMN     "branch_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "licenses" TEXT[] DEFAULT ARRAY[]::TEXT[],
ADD COLUMN     "pull_request_settings" JSONB NOT NULL DEFAULT '{}',
ADD COLUMN     "topics" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "topic" (
    "id" BIGSERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "topic_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "topic_name_key" ON "topic"("name");

-- CreateIndex
CREATE INDEX "repository_topics_idx" ON "repository" USING GIN ("topics");

