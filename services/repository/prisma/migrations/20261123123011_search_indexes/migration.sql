-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateIndex
CREATE INDEX "owner_visibility_idx" ON "owner"("visibility");

-- CreateIndex
CREATE INDEX "repository_lower_name_trgm_idx" ON "repository" USING GIN ("lower_name" gin_trgm_ops);
