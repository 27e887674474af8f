// Resident memory of `pnpm start`'s process tree (pnpm, the supervisor, the gateway and the
// four services; PostgreSQL and NATS are the machine's own here, so not in the tree), per
// process, read from /proc: once the system is idle after start, and again after a load run.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

const ROLES = [
  [/^(\/bin\/)?sh\b/, 'sh'],
  [/cli\/dist\/main\.js start/, 'supervisor (anvil start)'],
  [/gateway\/dist\/main\.js/, 'gateway'],
  [/services\/identity\/dist\/main\.js/, 'identity'],
  [/services\/repository\/dist\/main\.js/, 'repository'],
  [/services\/collaboration\/dist\/main\.js/, 'collaboration'],
  [/services\/hooks\/dist\/main\.js/, 'hooks'],
  [/pnpm/, 'pnpm'],
  [/^git\b|\/git /, 'git'],
];

function cmdline(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
  } catch {
    return '';
  }
}

/** VmRSS in KiB, or 0 when the process is gone. */
function rssKiB(pid) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
    return line ? Number(line.split(/\s+/)[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * `rootPid` and its descendants, by every process's parent pid (/proc/<pid>/stat): unlike
 * /proc/<pid>/task/<pid>/children this also finds children a process started from another
 * thread (pnpm does).
 */
export function wholeTree(rootPid) {
  const parentOf = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parentOf.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // exited meanwhile
    }
  }
  const tree = [rootPid];
  for (let i = 0; i < tree.length; i++) {
    for (const [pid, parent] of parentOf) if (parent === tree[i]) tree.push(pid);
  }
  return tree;
}

/** Every process under `rootPid` (itself included) with its role and RSS; git processes summed into one row. */
export function footprint(rootPid) {
  const rows = new Map();
  for (const pid of wholeTree(rootPid)) {
    const cmd = cmdline(pid);
    const rss = rssKiB(pid);
    if (!cmd || !rss) continue; // exited meanwhile, or a zombie
    const role = ROLES.find(([pattern]) => pattern.test(cmd))?.[1] ?? cmd.split(' ')[0] ?? `pid ${pid}`;
    const row = rows.get(role) ?? { role, processes: 0, rssKiB: 0 };
    row.processes++;
    row.rssKiB += rss;
    rows.set(role, row);
  }
  return [...rows.values()];
}

/**
 * Boots the system exactly as a user does, `pnpm start` (pnpm → sh → `anvil start` →
 * five children), with `env`; resolves once /api/healthz answers 200.
 */
export async function startWithPnpm({ env, cwd, baseUrl, waitUntil }) {
  const child = spawn('pnpm', ['start'], { env, cwd, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  const exited = () => (child.exitCode !== null ? `pnpm start exited with ${child.exitCode}` : undefined);
  await waitUntil(`${baseUrl}api/healthz`, async () => (await fetch(`${baseUrl}api/healthz`)).ok, { timeoutMs: 180_000, abort: exited });
  return child;
}

/** Stops what startWithPnpm started: SIGTERM to the supervisor's group, as Ctrl-C would. */
export async function stopPnpm(child) {
  if (child.exitCode !== null) return;
  const done = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, 'SIGINT');
  } catch {
    // gone
  }
  await done;
}

const MiB = (kib) => kib / 1024;

/** Markdown table of the two measurements side by side. */
export function printFootprint(idle, loaded, { fmt, machine, loadText }) {
  const roles = [...new Set([...idle.map((r) => r.role), ...loaded.map((r) => r.role)])];
  const get = (rows, role) => rows.find((r) => r.role === role);
  console.log(`\nResident memory (RSS) of \`pnpm start\`'s process tree, per process: idle after start, and after ${loadText}`);
  console.log(`${machine()}\n`);
  console.log('| process | idle MiB | after load MiB |');
  console.log('|---|---:|---:|');
  let idleTotal = 0;
  let loadedTotal = 0;
  for (const role of roles) {
    const a = get(idle, role);
    const b = get(loaded, role);
    idleTotal += a?.rssKiB ?? 0;
    loadedTotal += b?.rssKiB ?? 0;
    const n = Math.max(a?.processes ?? 0, b?.processes ?? 0);
    console.log(`| ${role}${n > 1 ? ` (${n} processes)` : ''} | ${a ? fmt(MiB(a.rssKiB)) : '–'} | ${b ? fmt(MiB(b.rssKiB)) : '–'} |`);
  }
  console.log(`| **total** | **${fmt(MiB(idleTotal))}** | **${fmt(MiB(loadedTotal))}** |`);
  console.log(`\ntarget: idle total ≤ 650 MiB: ${fmt(MiB(idleTotal))} ${MiB(idleTotal) <= 650 ? 'met' : 'MISSED'}`);
}
