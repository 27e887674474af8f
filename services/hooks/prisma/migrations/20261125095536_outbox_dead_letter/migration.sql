-- CreateTable
CREATE TABLE "outbox_dead_letter" (
    "id" UUID NOT NULL,
    "subject" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "payload" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "parked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "reason" TEXT NOT NULL,

    CONSTRAINT "outbox_dead_letter_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "outbox_dead_letter_parked_at_idx" ON "outbox_dead_letter"("parked_at");
