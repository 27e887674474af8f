-- CreateTable
CREATE TABLE "org_team" (
    "id" BIGINT NOT NULL,
    "org_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "permission" TEXT NOT NULL,
    "units_map" JSONB NOT NULL DEFAULT '{}',
    "includes_all_repositories" BOOLEAN NOT NULL DEFAULT false,
    "can_create_org_repo" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "org_team_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "org_team_member" (
    "team_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "org_id" BIGINT NOT NULL,

    CONSTRAINT "org_team_member_pkey" PRIMARY KEY ("team_id","user_id")
);

-- CreateTable
CREATE TABLE "team_repository" (
    "team_id" BIGINT NOT NULL,
    "repository_id" BIGINT NOT NULL,
    "org_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "team_repository_pkey" PRIMARY KEY ("team_id","repository_id")
);

-- CreateIndex
CREATE INDEX "org_team_org_id_idx" ON "org_team"("org_id");

-- CreateIndex
CREATE INDEX "org_team_member_user_id_idx" ON "org_team_member"("user_id");

-- CreateIndex
CREATE INDEX "org_team_member_org_id_user_id_idx" ON "org_team_member"("org_id", "user_id");

-- CreateIndex
CREATE INDEX "team_repository_repository_id_idx" ON "team_repository"("repository_id");

-- AddForeignKey
ALTER TABLE "team_repository" ADD CONSTRAINT "team_repository_repository_id_fkey" FOREIGN KEY ("repository_id") REFERENCES "repository"("id") ON DELETE CASCADE ON UPDATE CASCADE;
