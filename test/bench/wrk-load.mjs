// The same load as run.mjs's autocannon `load`, from wrk (Debian's package `wrk`, C, one
// thread), for answers so large that autocannon's own parsing takes more of the shared 2
// cores than the system answering them (a 313 KiB page of pulls costs it ~0.6–2.4 ms of
// CPU). Optional: undefined when wrk is not installed, and the bench prints the autocannon
// figures alone.
import { spawn, spawnSync } from 'node:child_process';

/** A loader with run.mjs's `load` signature, or undefined when wrk is not on the PATH. */
export function wrkLoader(connections) {
  if (spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error) return undefined;
  return (url, token, duration, headers = {}) => runWrk(url, connections, duration, { ...headers, authorization: `token ${token}` });
}

function runWrk(url, connections, duration, headers) {
  const args = ['-t1', `-c${connections}`, `-d${duration}s`, '--latency', '--timeout', '5s'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
  // The shell reports the CPU wrk used once it has waited for it (cutime + cstime of its stat).
  const script = 'wrk "$@" && echo "stat: $(cat /proc/$$/stat)"';
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', script, 'sh', ...args, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`wrk exited with ${code}: ${out}`));
      try {
        resolve(parseWrk(out));
      } catch (err) {
        reject(err);
      }
    });
  });
}

const UNIT_MS = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
const BYTES = { B: 1, KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3 };

function parseWrk(out) {
  const latency = (p) => {
    const m = new RegExp(`^\\s*${p}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(out);
    if (!m) throw new Error(`no ${p}% latency in wrk's output: ${out}`);
    return Number(m[1]) * UNIT_MS[m[2]];
  };
  const total = /(\d+) requests in [\d.]+\w+, ([\d.]+)(B|KB|MB|GB) read/.exec(out);
  if (!total) throw new Error(`no request count in wrk's output: ${out}`);
  const requests = Number(total[1]);
  const failed = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errorCount = errors ? errors.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  if (failed || errorCount) throw new Error(`wrk: ${failed} answers were not 2xx/3xx and ${errorCount} socket errors of ${requests}`);
  const stat = /stat: .*\) (.*)$/m.exec(out)[1].split(' ');
  // Fields after the command name: cutime and cstime are the 14th and 15th, in clock ticks (100 Hz).
  const cpuUs = (Number(stat[13]) + Number(stat[14])) * 10_000;
  return {
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)[1]), p50: latency(50), p99: latency(99), requests,
    client: cpuUs / Math.max(1, requests), bytes: (Number(total[2]) * BYTES[total[3]]) / Math.max(1, requests),
  };
}
