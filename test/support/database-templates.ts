// Test databases are cloned from a migrated template instead of migrated statement by
// statement. Every e2e boot makes four databases and every integration file one; applying
// the ~60 migrations took 1-3 s of each boot on this machine (one transaction and fsync per
// migration), while `CREATE DATABASE ... TEMPLATE` copies a migrated one in a fraction of
// that. A template is named after a hash of its folder's migrations, so a changed or added
// migration makes a new one; the services still run their migrations at start (and find
// nothing left to apply), and every template is built by the same applyMigrations, so the
// migration path is exercised on each new migration and by its own tests.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import pg from 'pg';
import { applyMigrations } from '@anvil/kit';
import { withDatabase } from './isolation.js';

const silent = { info: () => undefined };

/** `anvil_tpl_<label>_<hash of every migration.sql, in order>`. */
async function templateName(migrationsDir: string): Promise<{ name: string; family: string }> {
  const hash = createHash('sha256');
  const entries = (await readdir(migrationsDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  for (const entry of entries) {
    hash.update(entry).update('\0').update(await readFile(join(migrationsDir, entry, 'migration.sql'))).update('\0');
  }
  // services/<name>/prisma/migrations → <name>, and which folder exactly: the templates of
  // one folder are a family, whose older members are dropped when a new one is built.
  const label = basename(dirname(dirname(migrationsDir))).replace(/[^a-z0-9]/gi, '').toLowerCase().slice(0, 20);
  const family = `anvil_tpl_${label}_${createHash('sha256').update(migrationsDir).digest('hex').slice(0, 6)}_`;
  return { name: `${family}${hash.digest('hex').slice(0, 16)}`, family };
}

async function withMaintenance<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const building = new Map<string, Promise<void>>();

/**
 * Makes sure the template exists, building it under an advisory lock (parallel jest workers
 * may ask at once): migrated as `<name>_wip`, then renamed, so a template that exists is
 * complete. Templates of older migrations of the same service are dropped on the way.
 */
async function ensureTemplate(serverUrl: string, migrationsDir: string, template: { name: string; family: string }): Promise<void> {
  await withMaintenance(serverUrl, async (client) => {
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [template.name]);
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [template.name]);
      if (rowCount) return;
      const wip = `${template.name}_wip`;
      await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(wip)} WITH (FORCE)`);
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(wip)}`);
      await applyMigrations({ databaseUrl: withDatabase(serverUrl, wip), migrationsDir, log: silent });
      await client.query(`ALTER DATABASE ${client.escapeIdentifier(wip)} RENAME TO ${client.escapeIdentifier(template.name)}`);
      // A connection to a template makes every clone of it fail: allow none.
      await client.query(`ALTER DATABASE ${client.escapeIdentifier(template.name)} WITH ALLOW_CONNECTIONS false`);
      const { rows } = await client.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE starts_with(datname, $1) AND datname <> $2 AND NOT datname LIKE '%!_wip' ESCAPE '!'`,
        [template.family, template.name],
      );
      for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)}`).catch(() => undefined);
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [template.name]);
    }
  });
}

/** Creates `database` on the server with every migration of `migrationsDir` applied. */
export async function createMigratedDatabase(serverUrl: string, database: string, migrationsDir: string): Promise<void> {
  const template = await templateName(migrationsDir);
  let ready = building.get(template.name);
  if (!ready) {
    ready = ensureTemplate(serverUrl, migrationsDir, template);
    building.set(template.name, ready);
    ready.catch(() => building.delete(template.name));
  }
  await ready;
  await withMaintenance(serverUrl, (client) =>
    client.query(`CREATE DATABASE ${client.escapeIdentifier(database)} TEMPLATE ${client.escapeIdentifier(template.name)}`));
}
