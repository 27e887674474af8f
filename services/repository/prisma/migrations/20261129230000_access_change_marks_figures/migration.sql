-- A repository row changes with every push and contents write (its size, updated_at and
-- branch count), with every star, watch, fork and issue (its counts), and when its languages
-- or licenses are read again. Those columns are its "figures": they show in the repository's
-- JSON and nowhere else, and no guard reads them. A change to figures alone is marked with a
-- leading '~' (`~<id>`), so gateways keep the repository's resolution for the git reads'
-- guards and look it up afresh only where its JSON is shown (gateway/src/caches/
-- repository-access.ts). Any other change keeps the marks of migration 20261129090000:
-- `+<id>` when a name may resolve, the plain id otherwise.
CREATE OR REPLACE FUNCTION notify_repository_access_changed_row() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  mark text := '+';
  -- A column added to the repository table is not a figure until it is listed here.
  figures CONSTANT text[] := ARRAY['size', 'updated_at', 'branch_count', 'language', 'licenses', 'num_watches',
                                   'num_open_issues', 'num_open_pulls', 'issue_counts_version', 'num_stars',
                                   'num_forks', 'mirror_updated_at'];
BEGIN
  IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'repository' THEN
    -- Nested, so the columns are read only of a repository row.
    IF (to_jsonb(OLD) - figures) = (to_jsonb(NEW) - figures) THEN
      mark := '~';
    ELSIF (OLD.lower_name, OLD.owner_id, OLD.private, OLD.status) IS NOT DISTINCT FROM (NEW.lower_name, NEW.owner_id, NEW.private, NEW.status) THEN
      mark := '';
    END IF;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('repository_access_changed', mark || COALESCE(to_jsonb(OLD) ->> TG_ARGV[0], ''));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('repository_access_changed', mark || COALESCE(to_jsonb(NEW) ->> TG_ARGV[0], ''));
  END IF;
  RETURN NULL;
END;
$$;
