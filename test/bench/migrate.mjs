// `pnpm bench`, part migrate: migrating a ~50 MB repository through the API
// (POST /repos/migrate: gateway → repository service → simple-git fetch from the source,
// staged, then placed inside the row's transaction) against `git clone --mirror` of the
// same source, both from stock `git http-backend` on loopback (git-backend.mjs). A/B in
// rounds after a warm-up of each, with a pause before each timed run (BENCH_MIGRATE_SETTLE_MS).
// Target: migration ≤ 1.3× the plain mirror clone.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROUNDS = Number(process.env.BENCH_MIGRATIONS ?? 5);
// A pause before each timed run, so what the previous one set off (a migration's repo.created
// consumers, git's own writeback) is not billed to the next, whichever it is.
const SETTLE_MS = Number(process.env.BENCH_MIGRATE_SETTLE_MS ?? 1500);
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const err = [];
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited ${code}: ${Buffer.concat(err).toString().slice(0, 500)}`))));
  });
}

async function timeMirrorClone(sourceUrl) {
  const dir = await mkdtemp(join(tmpdir(), 'anvil-bench-mirror-'));
  try {
    const started = process.hrtime.bigint();
    await run('git', ['clone', '--mirror', '--quiet', sourceUrl, join(dir, 'mirror.git')]);
    return Number(process.hrtime.bigint() - started) / 1e9;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

let serial = 0;
async function timeMigration(baseUrl, token, sourceUrl) {
  const name = `bench-migrated-${++serial}`;
  const started = process.hrtime.bigint();
  const res = await fetch(`${baseUrl}api/v1/repos/migrate`, {
    method: 'POST', headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ clone_addr: sourceUrl, repo_name: name }),
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (res.status !== 201) throw new Error(`migrating: ${res.status} ${await res.text()}`);
  return seconds;
}

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Returns { migrate: seconds[], mirrorClone: seconds[], ratio (of the medians), paired (median of each round's ratio) }. */
export async function benchMigrate({ baseUrl, token, sourceUrl, log }) {
  await timeMirrorClone(sourceUrl);
  await timeMigration(baseUrl, token, sourceUrl);
  const migrate = [];
  const mirrorClone = [];
  for (let i = 0; i < ROUNDS; i++) {
    const order = i % 2 ? ['migrate', 'clone'] : ['clone', 'migrate'];
    for (const which of order) {
      await settle();
      if (which === 'migrate') migrate.push(await timeMigration(baseUrl, token, sourceUrl));
      else mirrorClone.push(await timeMirrorClone(sourceUrl));
      log(`migrate round ${i + 1} ${which.padEnd(8)} ${(which === 'migrate' ? migrate : mirrorClone).at(-1).toFixed(2)} s`);
    }
  }
  // Each round's two runs follow each other, so their ratio sees the same load: on a shared
  // machine the median of those is the steadier figure (the ratio of medians is the target's).
  const paired = median(migrate.map((m, i) => m / mirrorClone[i]));
  return { migrate, mirrorClone, ratio: median(migrate) / median(mirrorClone), paired, median };
}
