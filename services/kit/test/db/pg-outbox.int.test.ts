// An outbox transaction on a pg pool against real PostgreSQL: the change and its events
// commit together, the events in the order they were published; work that fails leaves
// neither behind and the pool still serves. The outbox table is a real service's (identity's).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { outboxEvent, pgOutboxTransaction, poolConfig } from '../../src/index.js';
import { newRunId, testDatabase, type TestDatabase } from '../../../../test/support/int-testbed.js';

const MIGRATIONS = fileURLToPath(new URL('../../../identity/prisma/migrations', import.meta.url));
const USER_DELETED = 'anvil.identity.v1.UserDeleted';

let database: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  database = await testDatabase(`anvil_kit_pg_outbox_test_${newRunId()}`, MIGRATIONS);
  pool = new pg.Pool(poolConfig(database.url, 2));
  await pool.query('CREATE TABLE change_probe (n int NOT NULL)');
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await database?.drop();
});

const events = async () => (await pool.query<{ id: string; subject: string; payload: Buffer }>('SELECT id::text AS id, subject, payload FROM outbox_event ORDER BY seq')).rows;
const changes = async () => (await pool.query<{ n: number }>('SELECT n FROM change_probe ORDER BY n')).rows.map((r) => r.n);

describe('an outbox transaction on a pg pool', () => {
  it('commits the change with its events, in the order they were published, and wakes the relay once', async () => {
    let woken = 0;
    const first = outboxEvent('identity.user.deleted', USER_DELETED, { user_id: 1, login: 'first' });
    const second = outboxEvent('identity.user.deleted', USER_DELETED, { user_id: 2, login: 'second' });
    const answer = await pgOutboxTransaction(pool, async (client, publish) => {
      await client.query('INSERT INTO change_probe (n) VALUES (1)');
      publish(first);
      publish(second);
      return 'done';
    }, { onPublished: () => woken++ });
    expect(answer).toBe('done');
    expect(await changes()).toEqual([1]);
    const written = await events();
    expect(written.map((e) => e.id)).toEqual([first.id, second.id]);
    expect(Buffer.from(written[1].payload).equals(Buffer.from(second.payload))).toBe(true);
    expect(woken).toBe(1);
  });

  it('writes neither the change nor its events when the work fails, and the pool serves the next caller', async () => {
    const before = (await events()).length;
    let woken = 0;
    await expect(pgOutboxTransaction(pool, async (client, publish) => {
      await client.query('INSERT INTO change_probe (n) VALUES (2)');
      publish(outboxEvent('identity.user.deleted', USER_DELETED, { user_id: 3, login: 'lost' }));
      await client.query('SELECT no_such_column FROM change_probe');
    }, { onPublished: () => woken++ })).rejects.toThrow(/no_such_column/);
    expect(await changes()).toEqual([1]);
    expect((await events()).length).toBe(before);
    expect(woken).toBe(0);
    // Both connections of the pool (max 2) still answer.
    await Promise.all([pool.query('SELECT 1'), pool.query('SELECT 1')]);
  });
});
