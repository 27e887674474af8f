-- AlterTable
ALTER TABLE "repository" ADD COLUMN     "issue_counts_version" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "num_open_issues" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "num_open_pulls" INTEGER NOT NULL DEFAULT 0;

-- branch_count is now counted from git_ref by each rewrite of a repository's refs: start
-- from what the table holds for every repository it has been written for.
UPDATE "repository" r SET "branch_count" = (SELECT count(*) FROM "git_ref" g WHERE g."repository_id" = r."id" AND g."name" LIKE 'refs/heads/%')
WHERE EXISTS (SELECT 1 FROM "git_ref_state" s WHERE s."repository_id" = r."id");
