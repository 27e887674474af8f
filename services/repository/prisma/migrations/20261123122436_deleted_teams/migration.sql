-- CreateTable
CREATE TABLE "deleted_team" (
    "id" BIGINT NOT NULL,
    "deleted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "deleted_team_pkey" PRIMARY KEY ("id")
);
