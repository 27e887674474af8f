-- CreateTable
CREATE TABLE "fork_repository" (
    "id" BIGINT NOT NULL,
    "facts" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "fork_repository_pkey" PRIMARY KEY ("id")
);
