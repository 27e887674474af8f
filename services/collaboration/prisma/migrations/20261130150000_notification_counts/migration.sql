-- Each user's notification threads counted per status and repository, kept by triggers in
-- the transaction that changes the threads. A list's X-Total-Count and /notifications/new
-- need the count per repository (the gateway then keeps the repositories the user may still
-- see); counted from the threads, that grew with them (about 2 ms of PostgreSQL at 10,000),
-- from here it is a row per repository. Prisma's schema cannot describe triggers; they live
-- only here.
CREATE TABLE "notification_count" (
    "user_id" BIGINT NOT NULL,
    "status" TEXT NOT NULL,
    "repository_id" BIGINT NOT NULL,
    "count" BIGINT NOT NULL,

    CONSTRAINT "notification_count_pkey" PRIMARY KEY ("user_id", "status", "repository_id")
);

-- One statement's changes, summed per count row and applied in key order: concurrent
-- statements take the count rows' locks in the same order, so they wait, never deadlock.
-- Statement triggers with transition tables (one event each, as PostgreSQL requires): an
-- INSERT ... ON CONFLICT DO UPDATE fires the INSERT one for the rows it inserted and the
-- UPDATE one for those it updated; cascaded deletes of an issue's threads fire the DELETE one.
CREATE FUNCTION notification_count_changed() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO notification_count AS c (user_id, status, repository_id, count)
    SELECT user_id, status, repository_id, count(*) FROM new_threads GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (user_id, status, repository_id) DO UPDATE SET count = c.count + EXCLUDED.count;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO notification_count AS c (user_id, status, repository_id, count)
    SELECT user_id, status, repository_id, sum(delta) FROM (
      SELECT user_id, status, repository_id, 1 AS delta FROM new_threads
      UNION ALL SELECT user_id, status, repository_id, -1 FROM old_threads) d
    GROUP BY 1, 2, 3 HAVING sum(delta) <> 0 ORDER BY 1, 2, 3
    ON CONFLICT (user_id, status, repository_id) DO UPDATE SET count = c.count + EXCLUDED.count;
  ELSE
    INSERT INTO notification_count AS c (user_id, status, repository_id, count)
    SELECT user_id, status, repository_id, -count(*) FROM old_threads GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (user_id, status, repository_id) DO UPDATE SET count = c.count + EXCLUDED.count;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER notification_count_inserted AFTER INSERT ON "notification"
  REFERENCING NEW TABLE AS new_threads FOR EACH STATEMENT EXECUTE FUNCTION notification_count_changed();
CREATE TRIGGER notification_count_updated AFTER UPDATE ON "notification"
  REFERENCING OLD TABLE AS old_threads NEW TABLE AS new_threads FOR EACH STATEMENT EXECUTE FUNCTION notification_count_changed();
CREATE TRIGGER notification_count_deleted AFTER DELETE ON "notification"
  REFERENCING OLD TABLE AS old_threads FOR EACH STATEMENT EXECUTE FUNCTION notification_count_changed();

-- The threads written before: counted with the triggers in place and the table locked
-- against writers meanwhile (a service still running during the migration waits).
LOCK TABLE "notification" IN SHARE ROW EXCLUSIVE MODE;
INSERT INTO notification_count (user_id, status, repository_id, count)
SELECT user_id, status, repository_id, count(*) FROM "notification" GROUP BY 1, 2, 3;
