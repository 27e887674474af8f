-- Gateways also remember "not found" (a stranger probing a private repository). Such an
-- answer names no repository id, so a notification must say when a change may make a name
-- resolve for someone who was told it does not: its payload is then the id marked with a
-- leading '+'. That is every row added or removed, every collaboration and team grant, and
-- a repository renamed, moved to another owner, made public or private, or done migrating.
-- A repository row changed otherwise (its size, counts and updated_at change with every
-- push and contents write) keeps the plain id, which leaves the remembered 404s alone.
CREATE OR REPLACE FUNCTION notify_repository_access_changed_row() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  mark text := '+';
BEGIN
  IF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'repository' THEN
    -- Nested, so the columns are read only of a repository row.
    IF (OLD.lower_name, OLD.owner_id, OLD.private, OLD.status) IS NOT DISTINCT FROM (NEW.lower_name, NEW.owner_id, NEW.private, NEW.status) THEN
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
