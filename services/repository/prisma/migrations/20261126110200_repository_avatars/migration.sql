-- AlterTable
ALTER TABLE "repository" ADD COLUMN     "avatar" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "repository_avatar" (
    "repository_id" BIGINT NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "content_type" VARCHAR(32) NOT NULL,
    "data" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "repository_avatar_pkey" PRIMARY KEY ("repository_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "repository_avatar_name_key" ON "repository_avatar"("name");

-- AddForeignKey
ALTER TABLE "repository_avatar" ADD CONSTRAINT "repository_avatar_repository_id_fkey" FOREIGN KEY ("repository_id") REFERENCES "repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;
