-- The repository service counts a new repository's creator as its watcher when it makes the
-- row (Gitea watches in the creating transaction). This marks the watch that count stands
-- for, once collaboration has recorded it from the repository's creation event: a second
-- announcement of that creation then changes nothing, and a creator who had watched on their
-- own before it arrived (counted then too) is counted once.
ALTER TABLE repo_watch ADD COLUMN counted_at_creation boolean NOT NULL DEFAULT false;
