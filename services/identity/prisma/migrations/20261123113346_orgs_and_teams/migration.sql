
-- CreateTable
CREATE TABLE "org_settings" (
    "org_id" BIGINT NOT NULL,
    "repo_admin_change_team_access" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "org_settings_pkey" PRIMARY KEY ("org_id")
);

-- CreateTable
CREATE TABLE "org_user" (
    "org_id" BIGINT NOT NULL,
    "uid" BIGINT NOT NULL,
    "is_public" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "org_user_pkey" PRIMARY KEY ("org_id","uid")
);

-- CreateTable
CREATE TABLE "team" (
    "id" BIGSERIAL NOT NULL,
    "org_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "lower_name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "authorize" SMALLINT NOT NULL DEFAULT 1,
    "includes_all_repositories" BOOLEAN NOT NULL DEFAULT false,
    "can_create_org_repo" BOOLEAN NOT NULL DEFAULT false,
    "visibility" SMALLINT NOT NULL DEFAULT 2,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "team_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "team_unit" (
    "team_id" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "access_mode" SMALLINT NOT NULL,

    CONSTRAINT "team_unit_pkey" PRIMARY KEY ("team_id","type")
);

-- CreateTable
CREATE TABLE "team_user" (
    "team_id" BIGINT NOT NULL,
    "org_id" BIGINT NOT NULL,
    "uid" BIGINT NOT NULL,

    CONSTRAINT "team_user_pkey" PRIMARY KEY ("team_id","uid")
);

-- CreateIndex
CREATE INDEX "org_user_uid_idx" ON "org_user"("uid");

-- CreateIndex
CREATE UNIQUE INDEX "team_org_id_lower_name_key" ON "team"("org_id", "lower_name");

-- CreateIndex
CREATE INDEX "team_user_uid_idx" ON "team_user"("uid");

-- CreateIndex
CREATE INDEX "team_user_org_id_uid_idx" ON "team_user"("org_id", "uid");

-- AddForeignKey
ALTER TABLE "team_unit" ADD CONSTRAINT "team_unit_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "team_user" ADD CONSTRAINT "team_user_team_id_fkey" FOREIGN KEY ("team_id") REFERENCES "team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
