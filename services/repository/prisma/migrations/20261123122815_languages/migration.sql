-- AlterTable
ALTER TABLE "repository" ADD COLUMN     "language" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "language_stats" (
    "repository_id" BIGINT NOT NULL,
    "commit_sha" TEXT NOT NULL,
    "languages" JSONB NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "language_stats_pkey" PRIMARY KEY ("repository_id","commit_sha")
);

-- AddForeignKey
ALTER TABLE "language_stats" ADD CONSTRAINT "language_stats_repository_id_fkey" FOREIGN KEY ("repository_id") REFERENCES "repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;
