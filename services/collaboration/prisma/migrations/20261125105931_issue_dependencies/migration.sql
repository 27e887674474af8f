-- CreateTable
CREATE TABLE "issue_dependency" (
    "issue_id" BIGINT NOT NULL,
    "dependency_id" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "issue_dependency_pkey" PRIMARY KEY ("issue_id","dependency_id")
);

-- CreateIndex
CREATE INDEX "issue_dependency_dependency_id_idx" ON "issue_dependency"("dependency_id");

-- AddForeignKey
ALTER TABLE "issue_dependency" ADD CONSTRAINT "issue_dependency_issue_id_fkey" FOREIGN KEY ("issue_id") REFERENCES "issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "issue_dependency" ADD CONSTRAINT "issue_dependency_dependency_id_fkey" FOREIGN KEY ("dependency_id") REFERENCES "issue"("id") ON DELETE CASCADE ON UPDATE CASCADE;
