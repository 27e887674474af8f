// Integration test: every committed change to what a repository's issue and pull answers
// show names that repository on `repository_answers_changed` (the triggers of migration
// 20261128010000), which the service forwards to the gateways' answer caches; a user's
// profile, shown in any repository, names every repository (`*`). Real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ANSWERS_CHANNEL } from '@anvil/kit';
import { newRunId, testDatabase, type TestDatabase } from '../../../test/support/int-testbed.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

let database: TestDatabase;
let listener: pg.Client;
let writer: pg.Client;
const heard: string[] = [];

beforeAll(async () => {
  database = await testDatabase(`anvil_answer_hints_${newRunId()}`, MIGRATIONS_DIR);
  listener = new pg.Client({ connectionString: database.url });
  writer = new pg.Client({ connectionString: database.url });
  await Promise.all([listener.connect(), writer.connect()]);
  listener.on('notification', (message) => heard.push(message.payload ?? ''));
  await listener.query(`LISTEN ${ANSWERS_CHANNEL}`);
}, 60_000);

afterAll(async () => {
  await listener?.end();
  await writer?.end();
  await database?.drop();
});

/** What one committed statement announced (NOTIFY arrives at commit). */
async function heardAfter(sql: string, params: unknown[] = []): Promise<string[]> {
  const before = heard.length;
  await writer.query(sql, params);
  // A statement's own round trip after the write: the listener has had time to hear it.
  await writer.query('SELECT pg_sleep(0.05)');
  await listener.query('SELECT 1');
  return [...new Set(heard.slice(before))];
}

describe('changes that repositories\' answers show are announced per repository', () => {
  it('an issue, its comment and its labels name the issue\'s repository', async () => {
    expect(await heardAfter(`INSERT INTO issue (id, repository_id, index, poster_id, title, body, created_at, updated_at)
      VALUES (1, 42, 1, 7, 'first', '', now(), now())`)).toEqual(['42']);
    expect(await heardAfter(`INSERT INTO comment (issue_id, repository_id, poster_id, body, created_at, updated_at)
      VALUES (1, 42, 7, 'hi', now(), now())`)).toEqual(['42']);
    expect(await heardAfter(`INSERT INTO label (id, repository_id, name, color) VALUES (5, 42, 'bug', 'ee0701')`)).toEqual(['42']);
    // issue_label has no repository of its own: its issue's.
    expect(await heardAfter('INSERT INTO issue_label (issue_id, label_id) VALUES (1, 5)')).toEqual(['42']);
    expect(await heardAfter('UPDATE issue SET title = $1 WHERE id = 1', ['renamed'])).toEqual(['42']);
  });

  it('an organization\'s label and a user\'s changed profile name every repository; a user first seen does not', async () => {
    expect(await heardAfter(`INSERT INTO label (id, org_id, name, color) VALUES (6, 9, 'org', 'ee0701')`)).toEqual(['*']);
    expect(await heardAfter(`INSERT INTO "user" (id, login, lower_name, profile) VALUES (7, 'alice', 'alice', '{}')
      ON CONFLICT DO NOTHING`)).toEqual([]);
    expect(await heardAfter(`UPDATE "user" SET login = 'alicia' WHERE id = 7`)).toEqual(['*']);
  });

  it('a branch\'s head names its repository only while a pull request is based on that branch', async () => {
    // A push to a repository without pulls on the branch changes no answer (its git reads are
    // announced by the repository service's refs).
    expect(await heardAfter(`INSERT INTO branch_head (repository_id, name, sha, updated_at) VALUES (43, 'main', $1, now())`, ['a'.repeat(40)])).toEqual([]);
    expect(await heardAfter(`UPDATE branch_head SET sha = $1 WHERE repository_id = 43 AND name = 'main'`, ['b'.repeat(40)])).toEqual([]);
    await writer.query(`INSERT INTO issue (id, repository_id, index, poster_id, title, body, is_pull, created_at, updated_at)
      VALUES (2, 43, 1, 7, 'a pull', '', true, now(), now())`);
    await writer.query(`INSERT INTO pull_request (issue_id, repository_id, base_branch, head_branch, head_repo_id, head_sha, merge_base, status)
      VALUES (2, 43, 'main', 'feature', 43, $1, $1, 'mergeable')`, ['c'.repeat(40)]);
    // Now its head is the pull's base.sha.
    expect(await heardAfter(`UPDATE branch_head SET sha = $1 WHERE repository_id = 43 AND name = 'main'`, ['d'.repeat(40)])).toEqual(['43']);
    expect(await heardAfter(`INSERT INTO branch_head (repository_id, name, sha, updated_at) VALUES (43, 'feature', $1, now())`, ['e'.repeat(40)])).toEqual([]);
    expect(await heardAfter(`DELETE FROM branch_head WHERE repository_id = 43 AND name = 'main'`)).toEqual(['43']);
  });

  it('deleting an issue names its repository once, not every repository', async () => {
    expect(await heardAfter('DELETE FROM issue WHERE id = 1')).toEqual(['42']);
  });
});
