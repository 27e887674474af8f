// Integration test over real PostgreSQL: writes keep their own budget of database
// connections. A statement issued in a repository's write turn, through the pool or through
// Prisma, is answered while reads hold every connection of the main pool, and reads are
// answered while write turns hold every connection of theirs.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type pg from 'pg';
import { runAsWriter } from '../src/domain/write-turn.js';
import { createDb, poolOf, queryRows, TurnRoutedPool, type RepositoryDb } from '../src/store/db.js';
import { Prisma } from '../src/store/generated/client.js';
import { newRunId, testDatabase, type TestDatabase } from '../../../test/support/int-testbed.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

let database: TestDatabase;
let db: RepositoryDb;
let pool: TurnRoutedPool;

beforeAll(async () => {
  database = await testDatabase(`anvil_repository_turn_connections_test_${newRunId()}`, MIGRATIONS_DIR);
  db = createDb(database.url);
  pool = poolOf(db) as TurnRoutedPool;
}, 60_000);

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
}, 60_000);

/** Takes every connection `of` may open, until the returned function gives them back. */
async function holdAll(of: pg.Pool): Promise<() => void> {
  const clients = await Promise.all(Array.from({ length: of.options.max }, () => of.connect()));
  return () => clients.forEach((client) => client.release());
}

/** A promise's outcome so far, without waiting for it. */
function watch<T>(promise: Promise<T>): { settled: () => boolean; promise: Promise<T> } {
  let settled = false;
  void promise.then(() => (settled = true), () => (settled = true));
  return { settled: () => settled, promise };
}

describe('database connections of write turns', () => {
  it('answer a write turn through the pool and through Prisma while reads hold every main connection', async () => {
    const release = await holdAll(pool);
    const read = watch(queryRows(db, Prisma.sql`SELECT 1 AS one`));
    try {
      const [viaPool, owners] = await runAsWriter('ada/notes', () => Promise.all([
        queryRows<{ two: number }>(db, Prisma.sql`SELECT 2 AS two`),
        db.owner.count(),
      ]));
      expect(viaPool).toEqual([{ two: 2 }]);
      expect(owners).toBe(0);
      // The read outside the turn still waits for a main connection.
      expect(read.settled()).toBe(false);
    } finally {
      release();
    }
    expect(await read.promise).toEqual([{ one: 1 }]);
  });

  it('leave reads their connections while write turns hold every one of theirs', async () => {
    const release = await holdAll(pool.turns);
    const write = watch(runAsWriter('ada/notes', () => queryRows(db, Prisma.sql`SELECT 3 AS three`)));
    try {
      expect(await queryRows(db, Prisma.sql`SELECT 4 AS four`)).toEqual([{ four: 4 }]);
      expect(await db.owner.count()).toBe(0);
      expect(write.settled()).toBe(false);
    } finally {
      release();
    }
    expect(await write.promise).toEqual([{ three: 3 }]);
  });
});
