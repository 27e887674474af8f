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
CREATE UNIQUE INDEX "outbox_event_id_key" ON "outbox_event"("id");

-- CreateIndex
CREATE INDEX "outbox_event_sent_at_seq_idx" ON "outbox_event"("sent_at", "seq");
