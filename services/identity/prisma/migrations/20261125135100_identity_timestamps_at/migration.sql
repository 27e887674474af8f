-- Identity's timestamps take the names every .proto and the other services' tables use
-- (created_at, updated_at, expires_at). Renamed in place: no data moves.
ALTER TABLE "user" RENAME COLUMN "created" TO "created_at";
ALTER TABLE "user" RENAME COLUMN "updated" TO "updated_at";
ALTER TABLE "access_token" RENAME COLUMN "created" TO "created_at";
ALTER TABLE "access_token" RENAME COLUMN "updated" TO "updated_at";
ALTER TABLE "gpg_key" RENAME COLUMN "created" TO "created_at";
ALTER TABLE "gpg_key" RENAME COLUMN "expires" TO "expires_at";
ALTER TABLE "oauth2_application" RENAME COLUMN "created" TO "created_at";
ALTER TABLE "oauth2_application" RENAME COLUMN "updated" TO "updated_at";
ALTER TABLE "oauth2_grant" RENAME COLUMN "created" TO "created_at";
ALTER TABLE "oauth2_grant" RENAME COLUMN "updated" TO "updated_at";
ALTER TABLE "oauth2_token" RENAME COLUMN "created" TO "created_at";
ALTER TABLE "team" RENAME COLUMN "created" TO "created_at";
ALTER INDEX "access_token_user_id_created_idx" RENAME TO "access_token_user_id_created_at_idx";
