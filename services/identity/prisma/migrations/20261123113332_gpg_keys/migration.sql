-- CreateTable
CREATE TABLE "gpg_key" (
    "id" BIGSERIAL NOT NULL,
    "owner_id" BIGINT NOT NULL,
    "key_id" TEXT NOT NULL,
    "primary_id" BIGINT,
    "primary_key_id" TEXT NOT NULL DEFAULT '',
    "content" TEXT NOT NULL,
    "armored" TEXT NOT NULL DEFAULT '',
    "emails" TEXT[],
    "verified" BOOLEAN NOT NULL DEFAULT false,
    "can_sign" BOOLEAN NOT NULL,
    "can_encrypt_comms" BOOLEAN NOT NULL,
    "can_encrypt_storage" BOOLEAN NOT NULL,
    "can_certify" BOOLEAN NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL,
    "expires" TIMESTAMPTZ(3),
    "added" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gpg_key_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "gpg_key_key_id_key" ON "gpg_key"("key_id");

-- CreateIndex
CREATE INDEX "gpg_key_owner_id_id_idx" ON "gpg_key"("owner_id", "id");

-- CreateIndex
CREATE INDEX "gpg_key_primary_id_idx" ON "gpg_key"("primary_id");

-- AddForeignKey
ALTER TABLE "gpg_key" ADD CONSTRAINT "gpg_key_primary_id_fkey" FOREIGN KEY ("primary_id") REFERENCES "gpg_key"("id") ON DELETE CASCADE ON UPDATE CASCADE;
