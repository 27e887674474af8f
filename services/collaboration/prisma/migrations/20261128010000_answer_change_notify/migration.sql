-- Tell listeners which repository's API answers a committed change may have changed:
-- `repository_answers_changed` with the repository's id, or `*` for a change that may show
-- in any repository's answers (a user's name, an organization's label). The collaboration
-- service forwards it to the gateways as the repository-answers hint (src/main.ts), which
-- drop the answers they cache (gateway/src/caches/answers.ts). NOTIFY is delivered at
-- commit and identical notifications of one transaction are folded, so a push that updates
-- 3,000 pulls of one repository sends one. Prisma's schema cannot describe triggers; they
-- live only here.

-- Row triggers of tables with the repository's id: TG_ARGV[0] names its column; no id (an
-- organization's label) is any repository.
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

-- Row triggers of tables that hang off an issue: the issue's repository. An issue already
-- gone (deleted with its rows, by cascade) announced itself.
CREATE FUNCTION notify_issue_answers_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
DECLARE
  repository text;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    SELECT repository_id::text INTO repository FROM issue WHERE id = OLD.issue_id;
    IF repository IS NOT NULL THEN PERFORM pg_notify('repository_answers_changed', repository); END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    SELECT repository_id::text INTO repository FROM issue WHERE id = NEW.issue_id;
    IF repository IS NOT NULL THEN PERFORM pg_notify('repository_answers_changed', repository); END IF;
  END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION notify_any_repository_answers_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('repository_answers_changed', '*');
  RETURN NULL;
END;
$$;

-- What a cached answer (gateway/src/caches/cached-operations.ts) reads; a table added to
-- one of them belongs in these lists.
DO $$
DECLARE
  watched text;
BEGIN
  FOREACH watched IN ARRAY ARRAY['issue', 'issue_index', 'comment', 'label', 'milestone', 'pull_request', 'branch_head', 'pull_auto_merge'] LOOP
    EXECUTE format(
      'CREATE TRIGGER repository_answers_changed AFTER INSERT OR UPDATE OR DELETE ON %I '
      'FOR EACH ROW EXECUTE FUNCTION notify_repository_answers_changed(''repository_id'')', watched);
  END LOOP;
  FOREACH watched IN ARRAY ARRAY['issue_assignee', 'issue_label', 'issue_dependency', 'reaction', 'pull_review', 'pull_review_comment'] LOOP
    EXECUTE format(
      'CREATE TRIGGER repository_answers_changed AFTER INSERT OR UPDATE OR DELETE ON %I '
      'FOR EACH ROW EXECUTE FUNCTION notify_issue_answers_changed()', watched);
  END LOOP;
  FOREACH watched IN ARRAY ARRAY['issue', 'issue_index', 'comment', 'label', 'milestone', 'pull_request', 'branch_head', 'pull_auto_merge',
                                 'issue_assignee', 'issue_label', 'issue_dependency', 'reaction', 'pull_review', 'pull_review_comment'] LOOP
    EXECUTE format(
      'CREATE TRIGGER repository_answers_truncated AFTER TRUNCATE ON %I '
      'FOR EACH STATEMENT EXECUTE FUNCTION notify_any_repository_answers_changed()', watched);
  END LOOP;
END;
$$;

-- Users (and organizations) as their names and avatars show in every repository's answers.
-- Not on INSERT: every write remembers its users (INSERT ... ON CONFLICT DO NOTHING), and a
-- user new to the table shows in no answer but the one the same write announces.
CREATE TRIGGER repository_answers_changed AFTER UPDATE OR DELETE ON "user"
  FOR EACH ROW EXECUTE FUNCTION notify_any_repository_answers_changed();
CREATE TRIGGER repository_answers_truncated AFTER TRUNCATE ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_any_repository_answers_changed();
