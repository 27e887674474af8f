// Applies a service's Prisma migrations (migrationsDir/<name>/migration.sql)
// at start-up, without the Prisma CLI. It keeps Prisma's `_prisma_migrations`
// bookkeeping exactly (same table, columns and checksum), so `prisma migrate
// status` / `migrate deploy` / `migrate dev` agree with what ran here.
//
// Safe for replicas starting together: all work happens under a PostgreSQL
// advisory lock, and each migration runs in its own transaction together with
// its bookkeeping row, so it is either fully applied and recorded, or neither.
// (Consequence: a migration must not contain statements PostgreSQL refuses
// inside a transaction, such as CREATE INDEX CONCURRENTLY.)
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

export interface MigrateLogger {
  info(obj: object | string, msg?: string): void;
}

export interface ApplyMigrationsOptions {
  /** postgresql://user:pass@host:port/db[?schema=name] */
  databaseUrl: string;
  /** Folder holding one sub-folder per migration, each with a migration.sql. */
  migrationsDir: string;
  log: MigrateLogger;
}

export interface ApplyMigrationsResult {
  /** Names of the migrations applied by this call, in order. */
  applied: string[];
}

interface Target {
  /** Connection config for the database itself. */
  config: pg.ClientConfig;
  /** Connection config for the server's `postgres` maintenance database. */
  maintenance: pg.ClientConfig;
  database: string;
  schema: string | undefined;
}

const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

// The URL is turned into a connection string per database instead of passing
// `database` next to `connectionString`: pg lets the connection string win.
function parseUrl(databaseUrl: string): Target {
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database) throw new Error(`Database URL has no database name: ${redact(databaseUrl)}`);
  // `?schema=` is Prisma's, not libpq's: apply it as the search_path.
  const schema = url.searchParams.get('schema') ?? undefined;
  url.searchParams.delete('schema');
  const maintenanceUrl = new URL(url);
  maintenanceUrl.pathname = '/postgres';
  return {
    config: {
      connectionString: url.toString(),
      ...(schema ? { options: `-c search_path=${quoteIdent(schema)}` } : {}),
    },
    maintenance: { connectionString: maintenanceUrl.toString() },
    database,
    schema,
  };
}

function redact(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return '<invalid url>';
  }
}

async function withClient<T>(config: pg.ClientConfig, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const isDuplicateDatabase = (err: unknown): boolean => {
  const code = (err as { code?: string }).code;
  // 42P04 duplicate_database; 23505 when two CREATE DATABASE race on pg_database's unique index.
  return code === '42P04' || code === '23505';
};

/** Creates the database named in the URL unless it exists. Returns true if it created it. */
export async function createDatabase(databaseUrl: string): Promise<boolean> {
  const target = parseUrl(databaseUrl);
  return withClient(target.maintenance, async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [target.database]);
    if (rowCount) return false;
    try {
      await client.query(`CREATE DATABASE ${quoteIdent(target.database)}`);
      return true;
    } catch (err) {
      if (isDuplicateDatabase(err)) return false; // another replica won the race
      throw err;
    }
  });
}

/** Drops the database named in the URL if it exists, disconnecting its sessions. */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const target = parseUrl(databaseUrl);
  await withClient(target.maintenance, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${quoteIdent(target.database)} WITH (FORCE)`);
  });
}

/**
 * A constant advisory-lock key per database: the first 8 bytes of a SHA-256 of
 * its name, as a signed bigint (passed as text, since JS numbers cannot hold it).
 */
export function migrationLockKey(database: string): string {
  return createHash('sha256').update(`anvil:migrate:${database}`).digest().readBigInt64BE(0).toString();
}

const sha256Hex = (content: Buffer): string => createHash('sha256').update(content).digest('hex');

interface LocalMigration {
  name: string;
  checksum: string;
  sql: string;
}

async function readMigrations(migrationsDir: string): Promise<LocalMigration[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort(); // Prisma's names start with a UTC timestamp, so name order is creation order
  const migrations: LocalMigration[] = [];
  for (const name of names) {
    const bytes = await readFile(path.join(migrationsDir, name, 'migration.sql'));
    migrations.push({ name, checksum: sha256Hex(bytes), sql: bytes.toString('utf8') });
  }
  return migrations;
}

// Exactly the table Prisma's schema engine creates.
const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

interface MigrationRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

/**
 * Creates the database if missing, then applies, in name order, every
 * migration not yet recorded as applied in `_prisma_migrations`.
 * Throws if an applied migration's file changed, or if a migration is recorded
 * as failed (left by `prisma migrate deploy`; resolve it with `prisma migrate resolve`).
 */
export async function applyMigrations(options: ApplyMigrationsOptions): Promise<ApplyMigrationsResult> {
  const { databaseUrl, migrationsDir, log } = options;
  const target = parseUrl(databaseUrl);
  const local = await readMigrations(migrationsDir);

  if (await createDatabase(databaseUrl)) log.info({ database: target.database }, 'created database');

  // One dedicated connection holds the session-level lock for the whole run;
  // the lock also dies with the connection if this process does.
  const client = new pg.Client(target.config);
  await client.connect();
  const lockKey = migrationLockKey(target.database);
  try {
    await client.query('SELECT pg_advisory_lock($1::bigint)', [lockKey]);
    try {
      return { applied: await applyLocked(client, target, local, log) };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [lockKey]);
    }
  } finally {
    await client.end();
  }
}

async function applyLocked(
  client: pg.Client,
  target: Target,
  local: LocalMigration[],
  log: MigrateLogger,
): Promise<string[]> {
  if (target.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(target.schema)}`);
  await client.query(CREATE_MIGRATIONS_TABLE);

  // Rows marked rolled back are history only, as for Prisma.
  const { rows } = await client.query<MigrationRow>(
    `SELECT migration_name, checksum, finished_at FROM "_prisma_migrations"
      WHERE rolled_back_at IS NULL ORDER BY started_at`,
  );
  const failed = rows.filter((r) => r.finished_at === null).map((r) => r.migration_name);
  if (failed.length) {
    throw new Error(
      `Database ${target.database} has failed migrations (${failed.join(', ')}); ` +
        'fix the database, then mark them with `prisma migrate resolve --applied|--rolled-back <name>`.',
    );
  }
  const applied = new Map(rows.map((r) => [r.migration_name, r.checksum]));
  for (const m of local) {
    const checksum = applied.get(m.name);
    if (checksum !== undefined && checksum !== m.checksum) {
      throw new Error(
        `Migration ${m.name} was modified after it was applied to ${target.database} ` +
          `(checksum ${checksum} in the database, ${m.checksum} on disk). Restore the file; add a new migration instead.`,
      );
    }
  }

  const done: string[] = [];
  for (const m of local) {
    if (applied.has(m.name)) continue;
    const started = Date.now();
    await client.query('BEGIN');
    try {
      await client.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count)
         VALUES ($1, $2, $3, clock_timestamp(), 0)`,
        [randomUUID(), m.checksum, m.name],
      );
      await client.query(m.sql); // simple-query protocol: runs a multi-statement script
      await client.query(
        `UPDATE "_prisma_migrations" SET finished_at = clock_timestamp(), applied_steps_count = 1
          WHERE migration_name = $1 AND finished_at IS NULL AND rolled_back_at IS NULL`,
        [m.name],
      );
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw new Error(`Migration ${m.name} failed on ${target.database}: ${(err as Error).message}`, { cause: err });
    }
    done.push(m.name);
    log.info({ migration: m.name, ms: Date.now() - started }, 'applied migration');
  }

  const unknown = [...applied.keys()].filter((name) => !local.some((m) => m.name === name));
  if (unknown.length) {
    // A newer release may have migrated this database already; old code keeps running.
    log.info({ migrations: unknown }, 'database has migrations this build does not know');
  }
  if (!done.length) log.info({ database: target.database, count: local.length }, 'migrations up to date');
  return done;
}
