// `pnpm bench`, part 3: cloning a ~50 MB repository through the gateway (git smart HTTP:
// gateway auth + ResolveRepository + signed grant → repository service → git upload-pack)
// against stock `git http-backend` serving the same bare repository (git-backend.mjs).
// The repository is created through the API, then filled once per run by `git fast-import`
// straight into its bare directory: COMMITS commits, each adding one file of seeded
// pseudo-random bytes (incompressible, so the pack really is ~50 MB on the wire).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cpuMsDuring } from './cpu-time.mjs';

const COMMITS = Number(process.env.BENCH_CLONE_COMMITS ?? 250);
const FILE_BYTES = Number(process.env.BENCH_CLONE_FILE_BYTES ?? 200 * 1024);
const CLONES = Number(process.env.BENCH_CLONES ?? 5);

function run(command, args, { cwd, input } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: [input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out).toString().trim())
      : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${Buffer.concat(err).toString().slice(0, 1000)}`))));
    if (input) input(child.stdin).then(() => child.stdin.end(), reject);
  });
}

/** mulberry32: a tiny seeded PRNG, so every run builds the same repository. */
function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

function write(stream, data) {
  return stream.write(data) ? Promise.resolve() : new Promise((resolve) => stream.once('drain', resolve));
}

async function fastImport(stdin, ref) {
  const next = prng(4);
  const started = 1_700_000_000;
  for (let i = 0; i < COMMITS; i++) {
    const blob = Buffer.allocUnsafe(FILE_BYTES);
    for (let off = 0; off + 4 <= FILE_BYTES; off += 4) blob.writeUInt32LE(next(), off);
    const message = `Add chunk ${i}\n`;
    await write(stdin, `commit ${ref}\nmark :${i + 1}\ncommitter Bench <bench@example.com> ${started + i * 60} +0000\n`
      + `data ${Buffer.byteLength(message)}\n${message}${i ? `from :${i}\n` : ''}`
      + `M 100644 inline chunks/${String(i).padStart(4, '0')}.bin\ndata ${FILE_BYTES}\n`);
    await write(stdin, blob);
    await write(stdin, '\n');
  }
}

/** Creates `owner/name` through the API and fills its bare repository; returns its size in bytes. */
export async function buildCloneRepository({ baseUrl, token, gitDir, name }) {
  const res = await fetch(`${baseUrl}api/v1/user/repos`, {
    method: 'POST', headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, private: false }),
  });
  if (res.status !== 201) throw new Error(`creating ${name}: ${res.status} ${await res.text()}`);
  const ref = await run('git', ['--git-dir', gitDir, 'symbolic-ref', 'HEAD']);
  await run('git', ['--git-dir', gitDir, 'fast-import', '--quiet'], { input: (stdin) => fastImport(stdin, ref) });
  const sizes = await run('git', ['--git-dir', gitDir, 'count-objects', '-v']);
  return Number(/size-pack: (\d+)/.exec(sizes)[1]) * 1024;
}

/**
 * `target` is a URL, or { url, headers: () => ['name: value', ...] } for extra request
 * headers, and `pids: () => [...]`, the server's processes, to count their CPU per clone.
 */
async function timeClone(target) {
  const { url, headers = () => [], pids = () => [] } = typeof target === 'string' ? { url: target } : target;
  const { result, cpuMs } = await cpuMsDuring(pids(), () => cloneOnce(url, headers));
  return { ...result, cpuMs };
}

async function cloneOnce(url, headers) {
  const dir = await mkdtemp(join(tmpdir(), 'anvil-bench-clone-'));
  try {
    const config = headers().flatMap((h) => ['-c', `http.extraHeader=${h}`]);
    const started = process.hrtime.bigint();
    await run('git', [...config, 'clone', '--bare', '--quiet', url, join(dir, 'clone.git')]);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const head = await run('git', ['--git-dir', join(dir, 'clone.git'), 'rev-parse', 'HEAD']);
    return { seconds, head };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Clones each URL CLONES times, alternating (A/B) so both see the same machine; every clone
 * must end at the same commit. Returns { name: { seconds: [...], median, best, cpuMs } }, cpuMs
 * being the median CPU of the server's processes (and the git they ran) per clone.
 */
export async function benchClone({ urls, log }) {
  const results = Object.fromEntries(Object.keys(urls).map((k) => [k, []]));
  for (const url of Object.values(urls)) await timeClone(url); // warm-up: page cache, git's own caches
  let head;
  const entries = Object.entries(urls);
  for (let i = 0; i < CLONES; i++) {
    // Each round starts with a different server, so no server always follows the same one.
    for (const [name, url] of [...entries.slice(i % entries.length), ...entries.slice(0, i % entries.length)]) {
      const r = await timeClone(url);
      if (head && r.head !== head) throw new Error(`${name} cloned ${r.head}, expected ${head}`);
      head = r.head;
      results[name].push(r);
      log(`clone ${i + 1} ${name.padEnd(18)} ${r.seconds.toFixed(2)} s${r.cpuMs === undefined ? '' : `, server CPU ${Math.round(r.cpuMs)} ms`}`);
    }
  }
  // The median, not the mean: one clone slowed by a neighbour's build should not decide it.
  const median = (xs) => {
    const sorted = [...xs].sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  return Object.fromEntries(Object.entries(results).map(([name, runs]) => {
    const seconds = runs.map((r) => r.seconds);
    const cpu = runs.map((r) => r.cpuMs).filter((ms) => ms !== undefined);
    return [name, { seconds, median: median(seconds), best: Math.min(...seconds), cpuMs: cpu.length ? median(cpu) : undefined }];
  }));
}
