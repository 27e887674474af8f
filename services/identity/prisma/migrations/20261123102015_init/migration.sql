-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateTable
CREATE TABLE "user" (
    "id" BIGSERIAL NOT NULL,
    "type" SMALLINT NOT NULL DEFAULT 0,
    "name" TEXT NOT NULL,
    "lower_name" TEXT NOT NULL,
    "full_name" TEXT NOT NULL DEFAULT '',
    "email" TEXT NOT NULL DEFAULT '',
    "keep_email_private" BOOLEAN NOT NULL DEFAULT false,
    "passwd" TEXT NOT NULL DEFAULT '',
    "must_change_password" BOOLEAN NOT NULL DEFAULT false,
    "source_id" BIGINT NOT NULL DEFAULT 0,
    "login_name" TEXT NOT NULL DEFAULT '',
    "location" TEXT NOT NULL DEFAULT '',
    "website" TEXT NOT NULL DEFAULT '',
    "description" TEXT NOT NULL DEFAULT '',
    "language" TEXT NOT NULL DEFAULT '',
    "visibility" SMALLINT NOT NULL DEFAULT 0,
    "is_admin" BOOLEAN NOT NULL DEFAULT false,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "restricted" BOOLEAN NOT NULL DEFAULT false,
    "prohibit_login" BOOLEAN NOT NULL DEFAULT false,
    "max_repo_creation" INTEGER NOT NULL DEFAULT -1,
    "allow_git_hook" BOOLEAN NOT NULL DEFAULT false,
    "allow_import_local" BOOLEAN NOT NULL DEFAULT false,
    "allow_create_organization" BOOLEAN NOT NULL DEFAULT true,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_login" TIMESTAMPTZ(3),

    CONSTRAINT "user_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "email_address" (
    "id" BIGSERIAL NOT NULL,
    "user_id" BIGINT NOT NULL,
    "email" TEXT NOT NULL,
    "lower_email" TEXT NOT NULL,
    "verified" BOOLEAN NOT NULL DEFAULT true,
    "is_primary" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "email_address_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "access_token" (
    "id" BIGSERIAL NOT NULL,
    "user_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "token_last_eight" TEXT NOT NULL,
    "scopes" TEXT[],
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "access_token_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "outbox_event" (
    "seq" BIGSERIAL NOT NULL,
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMPTZ(3),

    CONSTRAINT "outbox_event_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "processed_event" (
    "consumer" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_event_pkey" PRIMARY KEY ("consumer","event_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "user_lower_name_key" ON "user"("lower_name");

-- CreateIndex
CREATE INDEX "user_lower_name_trgm_idx" ON "user" USING GIN ("lower_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "user_full_name_trgm_idx" ON "user" USING GIN ("full_name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "user_email_trgm_idx" ON "user" USING GIN ("email" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "user_is_admin_idx" ON "user"("is_admin");

-- CreateIndex
CREATE UNIQUE INDEX "email_address_lower_email_key" ON "email_address"("lower_email");

-- CreateIndex
CREATE INDEX "email_address_user_id_idx" ON "email_address"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "access_token_token_hash_key" ON "access_token"("token_hash");

-- CreateIndex
CREATE INDEX "access_token_user_id_created_idx" ON "access_token"("user_id", "created");

-- CreateIndex
CREATE UNIQUE INDEX "access_token_user_id_name_key" ON "access_token"("user_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "outbox_event_id_key" ON "outbox_event"("id");

-- CreateIndex
CREATE INDEX "outbox_event_sent_at_seq_idx" ON "outbox_event"("sent_at", "seq");

-- AddForeignKey
ALTER TABLE "email_address" ADD CONSTRAINT "email_address_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "access_token" ADD CONSTRAINT "access_token_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;
