-- Stars announce themselves (repository.star.added) in the transaction that adds them. Stars
-- already there never were: they start unannounced and the service announces them once at
-- start, after which every new row is announced with it (the default becomes true).
ALTER TABLE "star" ADD COLUMN "announced" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "star" ALTER COLUMN "announced" SET DEFAULT true;
