-- A branch's head (branch_head, written on every push) shows in an answer only as the
-- `base.sha` of the pull requests based on that branch. Announce a change of it only when
-- such a pull exists: every push to a repository without pulls on that branch used to make
-- every gateway drop all of that repository's answers (contents, branches, ...) again.
-- A pull created while a push to its base commits is announced by its own row; should the
-- push's row commit later without seeing it, the pull's base.sha may show the old head until
-- the answer's TTL.
CREATE FUNCTION notify_branch_head_answers_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND EXISTS (SELECT 1 FROM pull_request WHERE repository_id = OLD.repository_id AND base_branch = OLD.name) THEN
    PERFORM pg_notify('repository_answers_changed', OLD.repository_id::text);
  END IF;
  IF TG_OP <> 'DELETE' AND EXISTS (SELECT 1 FROM pull_request WHERE repository_id = NEW.repository_id AND base_branch = NEW.name) THEN
    PERFORM pg_notify('repository_answers_changed', NEW.repository_id::text);
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER repository_answers_changed ON branch_head;
CREATE TRIGGER repository_answers_changed AFTER INSERT OR UPDATE OR DELETE ON branch_head
  FOR EACH ROW EXECUTE FUNCTION notify_branch_head_answers_changed();
