// CPU time per request of the processes behind each variant of `pnpm bench`, read from
// /proc (Linux; elsewhere it reports nothing). Requests per second swing with whatever else
// runs on the machine; the CPU each request costs each process hardly does, so this is the
// figure to compare when the machine is shared (and it says where the time goes: the
// system's node processes vs PostgreSQL).
import { readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux the bench runs on

/** utime + stime of `pid`; with `reaped`, also of its children that exited (git, for a server). */
function ticksOf(pid, reaped = false) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return reaped ? own + Number(fields[13]) + Number(fields[14]) : own; // + cutime + cstime
  } catch {
    return 0; // gone, or no /proc
  }
}

/**
 * Milliseconds of CPU that `pids` and their exited children spent while `work` ran, or
 * undefined without /proc. For a git server that is node and every git it ran and reaped.
 */
export async function cpuMsDuring(pids, work) {
  const before = pids.map((pid) => ticksOf(pid, true));
  const result = await work();
  const ticks = pids.reduce((sum, pid, i) => sum + Math.max(0, ticksOf(pid, true) - before[i]), 0);
  return { result, cpuMs: before.some((t) => t > 0) ? (ticks / TICKS_PER_SECOND) * 1000 : undefined };
}

function childrenOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** `pid` and all its descendants (a supervisor's services, the bare hop's callee). */
export function processTree(pid) {
  const all = [pid];
  for (let i = 0; i < all.length; i++) all.push(...childrenOf(all[i]));
  return all;
}

/**
 * Starts measuring: `groups` maps a name to a function listing its pids (async allowed, and
 * asked again at the end so processes started meanwhile, e.g. new pool connections, count),
 * or to `{ list, reaped: true }` to count only what their children that exited used (the git
 * processes a service spawned and reaped).
 * Returns `stop(requests)` → µs of CPU per request per group, or undefined without /proc.
 */
export async function startCpuMeter(groups) {
  const specs = Object.entries(groups).map(([name, g]) => [name, typeof g === 'function' ? { list: g, reaped: false } : g]);
  const ticks = (pid, reaped) => (reaped ? ticksOf(pid, true) - ticksOf(pid) : ticksOf(pid));
  const pidsAtStart = {};
  const before = new Map();
  for (const [name, { list, reaped }] of specs) {
    pidsAtStart[name] = await list();
    for (const pid of pidsAtStart[name]) before.set(`${name}:${pid}`, ticks(pid, reaped));
  }
  return async (requests) => {
    const perRequest = {};
    for (const [name, { list, reaped }] of specs) {
      const pids = new Set([...pidsAtStart[name], ...(await list())]);
      let sum = 0;
      // A process that exited meanwhile (an idle pool connection closing) reads 0: count it as 0, not negative.
      for (const pid of pids) sum += Math.max(0, ticks(pid, reaped) - (before.get(`${name}:${pid}`) ?? 0));
      perRequest[name] = requests > 0 ? (sum / TICKS_PER_SECOND) * 1e6 / requests : 0;
    }
    return perRequest;
  };
}

/** What a process of a booted system is: a deployable's name, `git`, or `other` (supervisor, pnpm). */
export function processKind(pid) {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    const deployable = args.map((a) => /(?:^|\/)(gateway|identity|repository|collaboration|hooks)\/dist\/main\.js$/.exec(a)).find(Boolean);
    if (deployable) return deployable[1];
    return /(^|\/)git$/.test(args[0]) ? 'git' : 'other';
  } catch {
    return 'gone';
  }
}

/**
 * CPU groups for startCpuMeter(), one per process of the system under `rootPid`: gateway,
 * repository, identity, git (the long-lived processes the services keep; processes that
 * exit are not counted here) and the rest of node.
 */
export function processGroups(rootPid, kinds = ['gateway', 'repository', 'identity', 'git']) {
  const of = (wanted) => () => processTree(rootPid).filter((pid) => {
    const kind = processKind(pid);
    return wanted === 'rest' ? !kinds.includes(kind) : kind === wanted;
  });
  const groups = Object.fromEntries([...kinds, 'rest'].map((k) => [k, of(k)]));
  // The git processes that ran and exited meanwhile (a spawn on the read path shows here).
  groups.spawned = { list: processTree.bind(null, rootPid), reaped: true };
  return groups;
}

/** The pids under `rootPid` whose command line matches `pattern` (e.g. /gateway\/dist\/main\.js/), or with `except`, those that do not. */
export function pidsMatching(rootPid, pattern, except = false) {
  return processTree(rootPid).filter((pid) => {
    let cmdline = '';
    try {
      cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      // exited meanwhile
    }
    return pattern.test(cmdline) !== except;
  });
}

/**
 * With cpu-profile.cjs loaded (BENCH_PROFILE_DIR): the system's node processes under
 * `rootPid` keep what they profiled so far apart and start over, so a profile holds one
 * phase of a bench (its load, not its set-up).
 */
export function restartProfiles(rootPid) {
  // Only processes that loaded cpu-profile.cjs (BENCH_NODE_OPTIONS) handle SIGUSR2; it kills the others.
  if (!process.env.BENCH_PROFILE_DIR || !(process.env.BENCH_NODE_OPTIONS ?? '').includes('cpu-profile')) return;
  for (const pid of processTree(rootPid)) {
    if (!['git', 'other', 'gone'].includes(processKind(pid))) process.kill(pid, 'SIGUSR2');
  }
}
