// A server we started on an earlier run may still be alive if the supervisor was killed
// hard (its children run in their own process group, so they survive it). PostgreSQL
// then refuses the data directory ("lock file postmaster.pid already exists"). Before
// starting, stop such a leftover, but only after checking, through /proc, that the pid
// really is that server on that directory: pid files outlive their processes and pids
// get reused.
import { readFileSync } from 'node:fs';
import { waitUntil } from '../net.js';

function commandLine(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid on the first line of a pid file, if the file exists. */
export function readPidFile(path: string): number | undefined {
  try {
    const pid = Number(readFileSync(path, 'utf8').split('\n')[0].trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Stops the process in `pidFile` when its command line contains every `marker`;
 * returns whether it did. Waits for it to be gone.
 */
export async function stopLeftover(pidFile: string, markers: string[], signal: NodeJS.Signals, say: (message: string) => void): Promise<boolean> {
  const pid = readPidFile(pidFile);
  if (pid === undefined || pid === process.pid) return false;
  const cmdline = commandLine(pid);
  if (!cmdline || !markers.every((m) => cmdline.includes(m))) return false;
  say(`stopping a leftover server from an earlier run (pid ${pid})`);
  process.kill(pid, signal);
  await waitUntil(`pid ${pid} to exit`, async () => !alive(pid), { timeoutMs: 30_000 });
  return true;
}
