-- The built-in issue tracker's settings (time tracking, dependencies); {} takes Gitea's defaults.
ALTER TABLE "repository" ADD COLUMN     "internal_tracker" JSONB NOT NULL DEFAULT '{}';
