// The e2e project's globalTeardown: removes the systems the workers shared
// (shared-system.ts), found by the run's name (e2e-global-setup.mjs): their processes
// (by the events namespace in their environment, each with its process group: the git
// processes it started), then their databases, JetStream streams and data directories.
// Nothing else would: no test file owns them, and their databases, streams and data
// directories outlive the workers that booted them.
import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import pg from 'pg';

const POSTGRES_URL = process.env.ANVIL_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.ANVIL_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

async function runPids(namespacePrefix) {
  const pids = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const environ = await readFile(`/proc/${entry}/environ`, 'utf8').catch(() => '');
    if (environ.split('\0').some((line) => line.startsWith(`ANVIL_EVENTS_NAMESPACE=${namespacePrefix}`))) pids.push(Number(entry));
  }
  return pids;
}

async function killRunProcesses(namespacePrefix) {
  for (const pid of await runPids(namespacePrefix)) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, 'SIGKILL');
      } catch {
        // Not a group leader, or gone already.
      }
    }
  }
  const deadline = Date.now() + 10_000;
  while ((await runPids(namespacePrefix)).length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
}

async function dropDatabases(prefix) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query(`SELECT datname FROM pg_database WHERE datname LIKE $1 ESCAPE '!'`, [`${prefix.replace(/[!_%]/g, '!$&')}!_%`]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(datname)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

async function deleteStreams(namespacePrefix) {
  const nc = await connect({ servers: NATS_URL, name: 'anvil-e2e-teardown' });
  try {
    const jsm = await nc.jetstreamManager();
    const names = [];
    for await (const stream of jsm.streams.list()) {
      if (stream.config.subjects?.some((subject) => subject.startsWith(namespacePrefix))) names.push(stream.config.name);
    }
    for (const name of names) await jsm.streams.delete(name);
  } finally {
    await nc.close();
  }
}

async function removeDataDirs(namespacePrefix) {
  for (const entry of await readdir(tmpdir())) {
    if (entry.startsWith(`anvil-${namespacePrefix}`)) await rm(join(tmpdir(), entry), { recursive: true, force: true });
  }
}

export default async function teardown() {
  const run = process.env.ANVIL_E2E_RUN;
  if (!run) return;
  const namespacePrefix = `e2e_${run}_`;
  await killRunProcesses(namespacePrefix);
  await dropDatabases(`anvil_e2e_${run}`);
  await deleteStreams(namespacePrefix);
  await removeDataDirs(namespacePrefix);
}
