-- CreateTable
CREATE TABLE "webhook" (
    "id" BIGSERIAL NOT NULL,
    "repo_id" BIGINT NOT NULL DEFAULT 0,
    "owner_id" BIGINT NOT NULL DEFAULT 0,
    "is_system_webhook" BOOLEAN NOT NULL DEFAULT false,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL DEFAULT '',
    "url" TEXT NOT NULL,
    "http_method" TEXT NOT NULL DEFAULT 'POST',
    "content_type" TEXT NOT NULL,
    "secret" TEXT NOT NULL DEFAULT '',
    "authorization_header" TEXT NOT NULL DEFAULT '',
    "events" TEXT[],
    "branch_filter" TEXT NOT NULL DEFAULT '',
    "meta" JSONB NOT NULL DEFAULT '{}',
    "is_active" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "hook_delivery" (
    "id" BIGSERIAL NOT NULL,
    "uuid" UUID NOT NULL,
    "hook_id" BIGINT NOT NULL,
    "event_id" TEXT NOT NULL DEFAULT '',
    "event" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "claimed_until" TIMESTAMPTZ(3),
    "request_url" TEXT NOT NULL DEFAULT '',
    "request_headers" JSONB NOT NULL DEFAULT '{}',
    "response_status" INTEGER NOT NULL DEFAULT 0,
    "response_headers" JSONB NOT NULL DEFAULT '{}',
    "response_body" TEXT NOT NULL DEFAULT '',
    "error" TEXT NOT NULL DEFAULT '',
    "duration_ms" INTEGER NOT NULL DEFAULT 0,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "hook_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "webhook_repo_id_idx" ON "webhook"("repo_id");

-- CreateIndex
CREATE INDEX "webhook_owner_id_idx" ON "webhook"("owner_id");

-- CreateIndex
CREATE UNIQUE INDEX "hook_delivery_uuid_key" ON "hook_delivery"("uuid");

-- CreateIndex
CREATE INDEX "hook_delivery_status_next_attempt_at_idx" ON "hook_delivery"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "hook_delivery_hook_id_id_idx" ON "hook_delivery"("hook_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "hook_delivery_hook_id_event_id_event_key" ON "hook_delivery"("hook_id", "event_id", "event");
