-- The repository's columns take the names the .proto and Gitea's JSON use, so a concept keeps
-- one name from the wire to the table. Renamed in place: no data moves.
ALTER TABLE "repository" RENAME COLUMN "owner_name" TO "owner_login";
ALTER TABLE "repository" RENAME COLUMN "is_private" TO "private";
ALTER TABLE "repository" RENAME COLUMN "is_archived" TO "archived";
ALTER TABLE "repository" RENAME COLUMN "is_empty" TO "empty";
ALTER TABLE "repository" RENAME COLUMN "is_template" TO "template";
