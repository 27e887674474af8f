// CPU profile of a whole process, for `pnpm bench` investigations:
//   BENCH_NODE_OPTIONS="--require $PWD/test/bench/cpu-profile.cjs" BENCH_PROFILE_DIR=/tmp/prof
// (Node 20 refuses --cpu-prof inside NODE_OPTIONS, so the profiler is started from here.)
// Writes <dir>/<pid>-<argv1 basename>.cpuprofile when the process exits; open it in
// Chrome DevTools or summarise it with test/bench/profile-top.mjs.
const inspector = require('node:inspector');
const { writeFileSync, mkdirSync } = require('node:fs');
const { basename, join } = require('node:path');

const dir = process.env.BENCH_PROFILE_DIR || '/tmp/anvil-profiles';
const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 500 });
session.post('Profiler.start');

process.on('exit', () => {
  // A session on the process's own thread answers synchronously, so this completes in 'exit'.
  session.post('Profiler.stop', (err, result) => {
    if (err) return;
    const name = `${process.pid}-${basename(process.argv[1] || 'node')}.cpuprofile`;
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), JSON.stringify(result.profile));
  });
});
