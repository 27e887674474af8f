// CPU profile of a whole process, for `pnpm bench` investigations:
//   BENCH_NODE_OPTIONS="--require $PWD/test/bench/cpu-profile.cjs" BENCH_PROFILE_DIR=/tmp/prof
// (Node 20 refuses --cpu-prof inside NODE_OPTIONS, so the profiler is started from here.)
// Writes <dir>/<pid>-<argv1 basename>.cpuprofile when the process exits (<name> is the
// deployable for Anvil's own processes: gateway, repository, ...); open it in
// Chrome DevTools or summarise it with test/bench/profile-top.mjs.
const inspector = require('node:inspector');
const { writeFileSync, mkdirSync } = require('node:fs');
const { basename, join } = require('node:path');

const dir = process.env.BENCH_PROFILE_DIR || '/tmp/anvil-profiles';
const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
// BENCH_PROFILE_INTERVAL_US: a longer interval where sampling every 500 µs costs the process
// too much (on some machines it slowed the system several times over).
session.post('Profiler.setSamplingInterval', { interval: Number(process.env.BENCH_PROFILE_INTERVAL_US) || 500 });
session.post('Profiler.start');

function save(profile, part) {
  const script = process.argv[1] || 'node';
  const deployable = /(gateway|identity|repository|collaboration|hooks)\/dist\/main\.js$/.exec(script);
  const name = `${process.pid}-${deployable ? deployable[1] : basename(script)}${part ? `-${part}` : ''}.cpuprofile`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, name), JSON.stringify(profile));
}

// SIGUSR2 starts over: what ran before (start-up, seeding) is dropped, so a bench can profile
// only its load phase (git-reads.mjs signals the system before each route it measures). What
// was profiled since the previous signal is kept as <pid>-<name>-<n>.cpuprofile, so a phase
// between two signals can be read alone (the mixed bench's sequential writes).
let parts = 0;
process.on('SIGUSR2', () => {
  session.post('Profiler.stop', (err, result) => {
    if (!err && parts++ > 0) save(result.profile, parts - 1);
    session.post('Profiler.start');
  });
});

process.on('exit', () => {
  // A session on the process's own thread answers synchronously, so this completes in 'exit'.
  session.post('Profiler.stop', (err, result) => {
    if (!err) save(result.profile);
  });
});
