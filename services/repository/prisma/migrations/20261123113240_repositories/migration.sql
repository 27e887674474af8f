-- AlterTable
ALTER TABLE "owner" ADD COLUMN     "max_repo_creation" INTEGER NOT NULL DEFAULT -1;

-- CreateTable
CREATE TABLE "repository" (
    "id" BIGSERIAL NOT NULL,
    "owner_id" BIGINT NOT NULL,
    "owner_name" TEXT NOT NULL,
    "lower_name" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "website" TEXT NOT NULL DEFAULT '',
    "is_private" BOOLEAN NOT NULL DEFAULT false,
    "is_archived" BOOLEAN NOT NULL DEFAULT false,
    "archived_at" TIMESTAMPTZ(3),
    "default_branch" TEXT NOT NULL,
    "is_empty" BOOLEAN NOT NULL DEFAULT true,
    "size" BIGINT NOT NULL DEFAULT 0,
    "object_format_name" TEXT NOT NULL DEFAULT 'sha1',
    "is_template" BOOLEAN NOT NULL DEFAULT false,
    "has_issues" BOOLEAN NOT NULL DEFAULT true,
    "has_wiki" BOOLEAN NOT NULL DEFAULT true,
    "has_pull_requests" BOOLEAN NOT NULL DEFAULT true,
    "has_projects" BOOLEAN NOT NULL DEFAULT true,
    "has_releases" BOOLEAN NOT NULL DEFAULT true,
    "has_packages" BOOLEAN NOT NULL DEFAULT true,
    "has_actions" BOOLEAN NOT NULL DEFAULT true,
    "has_code" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "repository_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "collaboration" (
    "repository_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "mode" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "collaboration_pkey" PRIMARY KEY ("repository_id","user_id")
);

-- CreateIndex
CREATE INDEX "repository_lower_name_idx" ON "repository"("lower_name");

-- CreateIndex
CREATE UNIQUE INDEX "repository_owner_id_lower_name_key" ON "repository"("owner_id", "lower_name");

-- CreateIndex
CREATE INDEX "collaboration_user_id_idx" ON "collaboration"("user_id");

-- AddForeignKey
ALTER TABLE "collaboration" ADD CONSTRAINT "collaboration_repository_id_fkey" FOREIGN KEY ("repository_id") REFERENCES "repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;
