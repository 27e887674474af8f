-- The repository-access notification names the repository whose row changed, so gateways
-- drop only its resolutions: a repository row changes with every push and contents write
-- (size, updated_at, counts), and dropping every resolution of every repository each time
-- made each write cost every other repository's readers a gRPC call. Rows of collaboration
-- and team_repository name their repository too; owners, teams and team members may change
-- any repository's resolution and keep the empty payload ("any"), as does TRUNCATE.
CREATE FUNCTION notify_repository_access_changed_row() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('repository_access_changed', COALESCE(to_jsonb(OLD) ->> TG_ARGV[0], ''));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('repository_access_changed', COALESCE(to_jsonb(NEW) ->> TG_ARGV[0], ''));
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER repository_access_changed ON repository;
CREATE TRIGGER repository_access_changed AFTER INSERT OR UPDATE OR DELETE ON repository
  FOR EACH ROW EXECUTE FUNCTION notify_repository_access_changed_row('id');
CREATE TRIGGER repository_access_truncated AFTER TRUNCATE ON repository
  FOR EACH STATEMENT EXECUTE FUNCTION notify_repository_access_changed();

DROP TRIGGER repository_access_changed ON collaboration;
CREATE TRIGGER repository_access_changed AFTER INSERT OR UPDATE OR DELETE ON collaboration
  FOR EACH ROW EXECUTE FUNCTION notify_repository_access_changed_row('repository_id');
CREATE TRIGGER repository_access_truncated AFTER TRUNCATE ON collaboration
  FOR EACH STATEMENT EXECUTE FUNCTION notify_repository_access_changed();

DROP TRIGGER repository_access_changed ON team_repository;
CREATE TRIGGER repository_access_changed AFTER INSERT OR UPDATE OR DELETE ON team_repository
  FOR EACH ROW EXECUTE FUNCTION notify_repository_access_changed_row('repository_id');
CREATE TRIGGER repository_access_truncated AFTER TRUNCATE ON team_repository
  FOR EACH STATEMENT EXECUTE FUNCTION notify_repository_access_changed();
