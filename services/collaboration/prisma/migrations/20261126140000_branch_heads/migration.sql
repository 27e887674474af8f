-- CreateTable
CREATE TABLE "branch_head" (
    "repository_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "sha" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "branch_head_pkey" PRIMARY KEY ("repository_id","name")
);

