// Boots the embedded PostgreSQL in a temporary data dir, writes a row, stops it, boots it
// again and expects the same port, password and data (init once, keep across restarts).
import { afterAll, describe, expect, it } from '@jest/globals';
import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/infra/embedded-postgres.js';
import { ProcessRunner } from '../src/processes.js';

const quiet = () => new ProcessRunner({ write: () => undefined });

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url.replace(/\/anvil$/, '/postgres') });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL', () => {
  let dataDir: string;
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('initialises once and keeps port, password and data across restarts', async () => {
    // mkdtemp makes a 0700 folder; as root the server runs as `postgres`, which must enter it.
    dataDir = await mkdtemp(join(tmpdir(), 'anvil-pg-'));
    await chmod(dataDir, 0o755);

    const runner = quiet();
    const first = await startEmbeddedPostgres({ dataDir, runner });
    expect(first.url).toMatch(/^postgresql:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/anvil$/);
    await query(first.url, 'CREATE TABLE kept (v text); INSERT INTO kept VALUES (\'é\')');
    const encoding = await query(first.url, 'SHOW server_encoding');
    expect(encoding.rows[0].server_encoding).toBe('UTF8');
    await first.stop();
    expect(runner.isRunning('postgres')).toBe(false);

    const state = JSON.parse(await readFile(join(dataDir, 'postgres.json'), 'utf8'));
    expect(state.port).toBe(first.port);
    expect((await stat(join(dataDir, 'postgres.json'))).mode & 0o777).toBe(0o600);

    const secondRunner = quiet();
    const second = await startEmbeddedPostgres({ dataDir, runner: secondRunner });
    expect(second.url).toBe(first.url);
    const rows = await query(second.url, 'SELECT v FROM kept');
    expect(rows.rows).toEqual([{ v: 'é' }]);

    // A supervisor killed hard leaves its server running (own process group). The next
    // start must stop that leftover rather than fail on postmaster.pid.
    const third = await startEmbeddedPostgres({ dataDir, runner: quiet() });
    try {
      expect((await secondRunner.exited('postgres')).expected).toBe(false);
      expect(third.url).toBe(first.url);
      expect((await query(third.url, 'SELECT count(*)::int AS n FROM kept')).rows).toEqual([{ n: 1 }]);
    } finally {
      await third.stop();
    }
  }, 120_000);
});
