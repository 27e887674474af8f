// Upgrading to the kept notification counts (migration 20261130150000): the threads users
// already have are counted by the migration itself, so their lists' X-Total-Count and
// /notifications/new are right from the first request after the upgrade. Real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { applyMigrations, createDatabase, dropDatabase } from '../../kit/src/db/migrate.js';
import { withDatabase } from '../../../test/support/isolation.js';
import { newRunId, PG_URL } from '../../../test/support/int-testbed.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));
const COUNTS_MIGRATION = '20261130150000_notification_counts';
const quiet = { info: () => undefined };

let dir: string;
let url: string;
let client: pg.Client;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'anvil-notification-counts-'));
  // Every migration before the counts, as a database of the previous release has them.
  for (const name of (await readdir(MIGRATIONS_DIR)).filter((n) => n < COUNTS_MIGRATION && /^\d/.test(n))) {
    await cp(join(MIGRATIONS_DIR, name), join(dir, name), { recursive: true });
  }
  url = withDatabase(PG_URL, `anvil_collaboration_counts_upgrade_${newRunId()}`);
  await createDatabase(url);
  await applyMigrations({ databaseUrl: url, migrationsDir: dir, log: quiet });
  client = new pg.Client({ connectionString: url });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  if (url) await dropDatabase(url);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('upgrading to kept notification counts', () => {
  it('counts the threads users already had, per repository and status', async () => {
    await client.query(`INSERT INTO issue (repository_id, index, poster_id, title, created_at, updated_at)
      SELECT 1 + n % 3, n, 1, 'issue ' || n, now(), now() FROM generate_series(1, 60) AS n`);
    await client.query(`INSERT INTO notification (user_id, repository_id, issue_id, source, status, comment_id, updated_by)
      SELECT u, i.repository_id, i.id, 'issue', (ARRAY['unread', 'read', 'pinned'])[1 + (i.index / u) % 3], 0, 1
        FROM issue i, generate_series(2, 4) AS u WHERE i.index % u = 0`);

    await cp(join(MIGRATIONS_DIR, COUNTS_MIGRATION), join(dir, COUNTS_MIGRATION), { recursive: true });
    expect((await applyMigrations({ databaseUrl: url, migrationsDir: dir, log: quiet })).applied).toEqual([COUNTS_MIGRATION]);

    const counted = await client.query(`SELECT user_id, status, repository_id, count(*)::bigint AS count FROM notification GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`);
    const kept = await client.query(`SELECT user_id, status, repository_id, count FROM notification_count ORDER BY 1, 2, 3`);
    expect(counted.rows.length).toBeGreaterThan(5);
    expect(kept.rows).toEqual(counted.rows);
  });
});
