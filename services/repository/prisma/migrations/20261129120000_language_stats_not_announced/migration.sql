-- language_stats no longer announces its rows as answer changes. A row holds the statistics
-- of one commit, which never change, and GET /languages reads the row of the default
-- branch's head: what moves its answer is the head (git_ref_state, announced) or the default
-- branch (the repository row, announced). The row written after every push to a default
-- branch only made every gateway drop that repository's answers a second time, a moment
-- after the push had already done so.
DROP TRIGGER repository_answers_changed ON language_stats;
