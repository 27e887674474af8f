-- Tell listeners which repository's API answers a committed change may have changed:
-- `repository_answers_changed` with the repository's id, or `*` for a change that may show
-- in any repository's answers (an owner, a team). The repository service forwards it to the
-- gateways as the repository-answers hint (src/events/access-hints.ts), which drop the
-- answers they cache (gateway/src/caches/answers.ts). NOTIFY is delivered at commit and
-- identical notifications of one transaction are folded, so a push that rewrites a thousand
-- refs of one repository sends one. Prisma's schema cannot describe triggers; they live
-- only here.

-- Row triggers: TG_ARGV[0] names the column holding the repository's id.
CREATE FUNCTION notify_repository_answers_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('repository_answers_changed', COALESCE(to_jsonb(OLD) ->> TG_ARGV[0], '*'));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('repository_answers_changed', COALESCE(to_jsonb(NEW) ->> TG_ARGV[0], '*'));
  END IF;
  RETURN NULL;
END;
$$;

-- Triggers of tables that may show in any repository's answers (one notification per
-- transaction however many rows: identical ones are folded).
CREATE FUNCTION notify_any_repository_answers_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('repository_answers_changed', '*');
  RETURN NULL;
END;
$$;

-- What a cached answer (gateway/src/caches/cached-operations.ts) reads; a table added to
-- one of them belongs in these lists. git_ref_state changes with every rewrite of a
-- repository's refs, i.e. with every push or commit: the git reads' trigger.
DO $$
DECLARE
  watched text;
BEGIN
  FOREACH watched IN ARRAY ARRAY['collaboration', 'team_repository', 'language_stats', 'branch_protection', 'commit_status',
                                 'git_ref', 'git_ref_state', 'repository_migration', 'push_mirror', 'repository_avatar'] LOOP
    EXECUTE format(
      'CREATE TRIGGER repository_answers_changed AFTER INSERT OR UPDATE OR DELETE ON %I '
      'FOR EACH ROW EXECUTE FUNCTION notify_repository_answers_changed(''repository_id'')', watched);
    EXECUTE format(
      'CREATE TRIGGER repository_answers_truncated AFTER TRUNCATE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION notify_any_repository_answers_changed()', watched);
  END LOOP;
  -- Owners' profiles and team names show in any repository's answers. A new row changes no
  -- answer (what a new member or team may now see is the caller's permission, which is in
  -- an answer's key and announced by the access triggers).
  FOREACH watched IN ARRAY ARRAY['owner', 'org_team', 'org_team_member'] LOOP
    EXECUTE format(
      'CREATE TRIGGER repository_answers_changed AFTER UPDATE OR DELETE ON %I '
      'FOR EACH ROW EXECUTE FUNCTION notify_any_repository_answers_changed()', watched);
    EXECUTE format(
      'CREATE TRIGGER repository_answers_truncated AFTER TRUNCATE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION notify_any_repository_answers_changed()', watched);
  END LOOP;
END;
$$;

CREATE TRIGGER repository_answers_changed AFTER INSERT OR UPDATE OR DELETE ON repository
  FOR EACH ROW EXECUTE FUNCTION notify_repository_answers_changed('id');
CREATE TRIGGER repository_answers_truncated AFTER TRUNCATE ON repository
  FOR EACH STATEMENT EXECUTE FUNCTION notify_any_repository_answers_changed();
