// Integration test: needs a PostgreSQL server. ANVIL_TEST_PG_URL names any
// database on it (default: the local trust-auth server); each test works in a
// database of its own, created fresh and dropped afterwards.
import { describe, it, expect, beforeEach, afterEach } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { applyMigrations, dropDatabase } from '../../src/db/migrate.js';

const SERVER_URL = process.env.ANVIL_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const RUN_ID = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

const MIGRATIONS: Record<string, string> = {
  '20260101000000_init': 'CREATE TABLE "Widget" (id SERIAL PRIMARY KEY, name TEXT NOT NULL);\n',
  // Not idempotent: running it twice would leave two rows.
  '20260102000000_seed': `INSERT INTO "Widget" (name) VALUES ('first');\nALTER TABLE "Widget" ADD COLUMN colour TEXT;\n`,
};

const silentLog = { info: () => undefined };

let databaseUrl: string;
let migrationsDir: string;
let testNo = 0;

function urlFor(database: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function writeMigrations(dir: string, migrations: Record<string, string>): Promise<void> {
  for (const [name, sql] of Object.entries(migrations)) {
    await mkdir(path.join(dir, name), { recursive: true });
    await writeFile(path.join(dir, name, 'migration.sql'), sql);
  }
}

async function query<R extends pg.QueryResultRow>(sql: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<R>(sql)).rows;
  } finally {
    await client.end();
  }
}

const apply = () => applyMigrations({ databaseUrl, migrationsDir, log: silentLog });

beforeEach(async () => {
  databaseUrl = urlFor(`anvil_test_migrate_${RUN_ID}_${++testNo}`);
  migrationsDir = await mkdtemp(path.join(tmpdir(), 'anvil-migrate-'));
  await writeMigrations(migrationsDir, MIGRATIONS);
});

afterEach(async () => {
  await dropDatabase(databaseUrl);
  await rm(migrationsDir, { recursive: true, force: true });
});

describe('applyMigrations', () => {
  it('creates a missing database and applies every migration in name order, recording them as Prisma does', async () => {
    const result = await apply();

    expect(result.applied).toEqual(['20260101000000_init', '20260102000000_seed']);
    expect(await query('SELECT name, colour FROM "Widget"')).toEqual([{ name: 'first', colour: null }]);
    const rows = await query<{
      id: string;
      checksum: string;
      migration_name: string;
      finished_at: Date | null;
      rolled_back_at: Date | null;
      applied_steps_count: number;
      logs: string | null;
    }>('SELECT * FROM "_prisma_migrations" ORDER BY started_at');
    expect(rows.map((r) => r.migration_name)).toEqual(Object.keys(MIGRATIONS));
    for (const row of rows) {
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(row.checksum).toBe(createHash('sha256').update(MIGRATIONS[row.migration_name]!).digest('hex'));
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.rolled_back_at).toBeNull();
      expect(row.logs).toBeNull();
      expect(row.applied_steps_count).toBe(1);
    }
  });

  it('does nothing when every migration is already applied', async () => {
    await apply();

    const again = await apply();

    expect(again.applied).toEqual([]);
    expect(await query('SELECT count(*)::int AS n FROM "_prisma_migrations"')).toEqual([{ n: 2 }]);
    expect(await query('SELECT count(*)::int AS n FROM "Widget"')).toEqual([{ n: 1 }]);
  });

  it('applies only the migrations added since the last run', async () => {
    await apply();
    await writeMigrations(migrationsDir, { '20260103000000_more': `INSERT INTO "Widget" (name) VALUES ('second');\n` });

    const result = await apply();

    expect(result.applied).toEqual(['20260103000000_more']);
    expect(await query('SELECT count(*)::int AS n FROM "Widget"')).toEqual([{ n: 2 }]);
  });

  it('lets replicas starting together both succeed while each migration is applied exactly once', async () => {
    const results = await Promise.all([apply(), apply(), apply()]);

    expect(results.flatMap((r) => r.applied).sort()).toEqual(Object.keys(MIGRATIONS));
    expect(
      await query('SELECT migration_name, count(*)::int AS n FROM "_prisma_migrations" GROUP BY 1 ORDER BY 1'),
    ).toEqual(Object.keys(MIGRATIONS).map((name) => ({ migration_name: name, n: 1 })));
    expect(await query('SELECT count(*)::int AS n FROM "Widget"')).toEqual([{ n: 1 }]);
  });

  it('refuses to run when an applied migration was edited afterwards', async () => {
    await apply();
    await writeMigrations(migrationsDir, { '20260102000000_seed': `INSERT INTO "Widget" (name) VALUES ('edited');\n` });

    await expect(apply()).rejects.toThrow(/20260102000000_seed was modified after it was applied/);
    expect(await query('SELECT name FROM "Widget"')).toEqual([{ name: 'first' }]);
  });

  it('leaves no trace of a migration that fails, and applies nothing after it', async () => {
    await writeMigrations(migrationsDir, {
      '20260101500000_broken': 'CREATE TABLE "Half" (id int);\nSELECT no_such_function();\n',
    });

    await expect(apply()).rejects.toThrow(/20260101500000_broken failed/);
    expect(await query('SELECT migration_name FROM "_prisma_migrations"')).toEqual([
      { migration_name: '20260101000000_init' },
    ]);
    expect(await query(`SELECT to_regclass('"Half"') AS t`)).toEqual([{ t: null }]);
  });
});
