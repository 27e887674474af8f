-- Tell listeners when anything ResolveRepository reads has changed: the repository, its
-- owner, collaborations and the org read model (teams, members, team repositories).
-- NOTIFY is delivered at commit and folded to one per transaction, so a listener hears of
-- exactly the changes that landed. The repository service forwards it to gateways as a
-- cache hint (src/events/access-hints.ts). Prisma's schema cannot describe triggers; they
-- live only here.
CREATE FUNCTION notify_repository_access_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('repository_access_changed', '');
  RETURN NULL;
END;
$$;

-- The tables ResolveRepository reads; a table added to it belongs in this list.
DO $$
DECLARE
  watched text;
BEGIN
  FOREACH watched IN ARRAY ARRAY['repository', 'owner', 'collaboration', 'org_team', 'org_team_member', 'team_repository'] LOOP
    EXECUTE format(
      'CREATE TRIGGER repository_access_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION notify_repository_access_changed()', watched);
  END LOOP;
END;
$$;
