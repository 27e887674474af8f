-- A user's star count (Gitea's num_stars), kept from repository's star events.
ALTER TABLE "user" ADD COLUMN "num_stars" INTEGER NOT NULL DEFAULT 0;
