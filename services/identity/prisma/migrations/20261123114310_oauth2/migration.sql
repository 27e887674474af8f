-- CreateTable
CREATE TABLE "oauth2_application" (
    "id" BIGSERIAL NOT NULL,
    "user_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "client_id" TEXT NOT NULL,
    "client_secret_hash" TEXT NOT NULL,
    "redirect_uris" TEXT[],
    "confidential_client" BOOLEAN NOT NULL DEFAULT true,
    "skip_secondary_authorization" BOOLEAN NOT NULL DEFAULT false,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth2_application_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth2_grant" (
    "id" BIGSERIAL NOT NULL,
    "user_id" BIGINT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "scopes" TEXT[],
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth2_grant_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth2_authorization_code" (
    "id" BIGSERIAL NOT NULL,
    "grant_id" BIGINT NOT NULL,
    "code_hash" TEXT NOT NULL,
    "redirect_uri" TEXT NOT NULL,
    "code_challenge" TEXT NOT NULL DEFAULT '',
    "code_challenge_method" TEXT NOT NULL DEFAULT '',
    "valid_until" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oauth2_authorization_code_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth2_token" (
    "id" BIGSERIAL NOT NULL,
    "grant_id" BIGINT NOT NULL,
    "access_token_hash" TEXT NOT NULL,
    "refresh_token_hash" TEXT NOT NULL,
    "access_expires" TIMESTAMPTZ(3) NOT NULL,
    "refresh_expires" TIMESTAMPTZ(3) NOT NULL,
    "created" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oauth2_token_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth2_rotated_refresh_token" (
    "refresh_token_hash" TEXT NOT NULL,
    "grant_id" BIGINT NOT NULL,
    "refresh_expires" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oauth2_rotated_refresh_token_pkey" PRIMARY KEY ("refresh_token_hash")
);

-- CreateIndex
CREATE UNIQUE INDEX "oauth2_application_client_id_key" ON "oauth2_application"("client_id");

-- CreateIndex
CREATE INDEX "oauth2_application_user_id_id_idx" ON "oauth2_application"("user_id", "id");

-- CreateIndex
CREATE INDEX "oauth2_grant_application_id_idx" ON "oauth2_grant"("application_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth2_grant_user_id_application_id_key" ON "oauth2_grant"("user_id", "application_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth2_authorization_code_code_hash_key" ON "oauth2_authorization_code"("code_hash");

-- CreateIndex
CREATE INDEX "oauth2_authorization_code_grant_id_idx" ON "oauth2_authorization_code"("grant_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth2_token_access_token_hash_key" ON "oauth2_token"("access_token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "oauth2_token_refresh_token_hash_key" ON "oauth2_token"("refresh_token_hash");

-- CreateIndex
CREATE INDEX "oauth2_token_grant_id_idx" ON "oauth2_token"("grant_id");

-- CreateIndex
CREATE INDEX "oauth2_rotated_refresh_token_grant_id_idx" ON "oauth2_rotated_refresh_token"("grant_id");

-- AddForeignKey
ALTER TABLE "oauth2_application" ADD CONSTRAINT "oauth2_application_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth2_grant" ADD CONSTRAINT "oauth2_grant_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth2_grant" ADD CONSTRAINT "oauth2_grant_application_id_fkey" FOREIGN KEY ("application_id") REFERENCES "oauth2_application"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth2_authorization_code" ADD CONSTRAINT "oauth2_authorization_code_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "oauth2_grant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth2_token" ADD CONSTRAINT "oauth2_token_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "oauth2_grant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "oauth2_rotated_refresh_token" ADD CONSTRAINT "oauth2_rotated_refresh_token_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "oauth2_grant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
