-- Forks: the parent a repository was forked from and how many forks each repository has.
ALTER TABLE "repository" ADD COLUMN "fork_id" BIGINT,
ADD COLUMN "num_forks" INTEGER NOT NULL DEFAULT 0;

CREATE INDEX "repository_fork_id_owner_id_idx" ON "repository"("fork_id", "owner_id");

-- A deleted parent leaves its forks standing alone (Gitea resets fork_id and is_fork).
ALTER TABLE "repository" ADD CONSTRAINT "repository_fork_id_fkey" FOREIGN KEY ("fork_id") REFERENCES "repository"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- num_forks follows the fork rows in the transaction that inserts or deletes one, whichever
-- code path does it (a fork, a repository deletion, an owner's deletion removing all of its
-- repositories). Prisma's schema cannot describe triggers; they live only here.
CREATE FUNCTION count_repository_forks() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND NEW.fork_id IS NOT NULL THEN
    UPDATE repository SET num_forks = num_forks + 1 WHERE id = NEW.fork_id;
  ELSIF TG_OP = 'DELETE' AND OLD.fork_id IS NOT NULL THEN
    UPDATE repository SET num_forks = GREATEST(num_forks - 1, 0) WHERE id = OLD.fork_id;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER repository_fork_count AFTER INSERT OR DELETE ON "repository"
  FOR EACH ROW EXECUTE FUNCTION count_repository_forks();
