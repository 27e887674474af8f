// Event-loop delay of a whole process, for `pnpm bench` investigations (how late a process
// runs what is ready, e.g. under the mixed load):
//   BENCH_NODE_OPTIONS="--require $PWD/test/bench/loop-delay.cjs" BENCH_PROFILE_DIR=/tmp/eld
// Every 5 s each of Anvil's processes appends a line to <dir>/<deployable>-<pid>.loop-delay:
// the p50, p99 and max delay in ms over those 5 s (sampled every 5 ms).
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { appendFileSync, mkdirSync } = require('node:fs');
const { join } = require('node:path');

const deployable = /(gateway|identity|repository|collaboration|hooks)\/dist\/main\.js$/.exec(process.argv[1] || '');
if (deployable) {
  const dir = process.env.BENCH_PROFILE_DIR || '/tmp/anvil-loop-delay';
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${deployable[1]}-${process.pid}.loop-delay`);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  setInterval(() => {
    const ms = (ns) => (ns / 1e6).toFixed(1);
    appendFileSync(file, `${new Date().toISOString()} p50 ${ms(delay.percentile(50))} p99 ${ms(delay.percentile(99))} max ${ms(delay.max)}\n`);
    delay.reset();
  }, 5000).unref();
}
