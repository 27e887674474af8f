-- Following (Gitea's follow table and its user counts): user_id follows follow_id.
ALTER TABLE "user" ADD COLUMN "num_followers" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "num_following" INTEGER NOT NULL DEFAULT 0;

CREATE TABLE "follow" (
    "id" BIGSERIAL NOT NULL,
    "user_id" BIGINT NOT NULL,
    "follow_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "follow_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "follow_follow_id_idx" ON "follow"("follow_id");

CREATE UNIQUE INDEX "follow_user_id_follow_id_key" ON "follow"("user_id", "follow_id");
