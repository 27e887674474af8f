-- AlterTable
ALTER TABLE "repository" ADD COLUMN     "num_stars" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "star" (
    "user_id" BIGINT NOT NULL,
    "repository_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "star_pkey" PRIMARY KEY ("user_id","repository_id")
);

-- CreateIndex
CREATE INDEX "star_repository_id_created_at_idx" ON "star"("repository_id", "created_at");

-- AddForeignKey
ALTER TABLE "star" ADD CONSTRAINT "star_repository_id_fkey" FOREIGN KEY ("repository_id") REFERENCES "repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;
