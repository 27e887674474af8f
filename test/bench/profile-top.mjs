// Prints the functions with the most self time in a .cpuprofile (see cpu-profile.cjs):
//   node test/bench/profile-top.mjs /tmp/prof/1234-main.js.cpuprofile [rows]
import { readFileSync } from 'node:fs';

const [file, rows = '25'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const self = new Map();
const dt = profile.timeDeltas;
profile.samples.forEach((id, i) => {
  const { callFrame: f } = byId.get(id);
  const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\/\.pnpm\/([^/]+).*$/, '$1').replace(/^file:\/\/\/work\/main\//, '')}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0));
});
const total = [...self.values()].reduce((a, b) => a + b, 0);
for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(rows))) {
  console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
}
