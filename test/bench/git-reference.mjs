// The one-process reference for git-backed reads: one node:http server and one long-lived
// `git cat-file --batch` on the benchmarked repository, answering GET contents of one file
// with the gateway's own JSON for it (BENCH_TEMPLATE) and the bytes read per request. The
// branch is resolved once at start, as a reference that caches refs would; no auth, no
// database. Env: BENCH_PORT, BENCH_GIT_DIR, BENCH_BRANCH, BENCH_PATH, BENCH_TEMPLATE.
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';

const gitDir = process.env.BENCH_GIT_DIR;
const path = process.env.BENCH_PATH;
const template = JSON.parse(process.env.BENCH_TEMPLATE);
const commit = execFileSync('git', ['--git-dir', gitDir, 'rev-parse', `refs/heads/${process.env.BENCH_BRANCH}^{commit}`], { encoding: 'utf8' }).trim();

const catFile = spawn('git', ['--git-dir', gitDir, 'cat-file', '--batch'], { stdio: ['pipe', 'pipe', 'inherit'] });
const waiting = [];
let buffered = Buffer.alloc(0);
catFile.stdout.on('data', (chunk) => {
  buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
  for (;;) {
    const eol = buffered.indexOf(0x0a);
    if (eol < 0) return;
    const [oid, type, size] = buffered.subarray(0, eol).toString('latin1').split(' ');
    if (type === 'missing' || size === undefined) {
      buffered = buffered.subarray(eol + 1);
      waiting.shift()(undefined);
      continue;
    }
    const length = Number(size);
    if (buffered.length < eol + 1 + length + 1) return;
    const content = buffered.subarray(eol + 1, eol + 1 + length);
    buffered = buffered.subarray(eol + 2 + length);
    waiting.shift()({ oid, content });
  }
});

const read = (spec) => new Promise((resolve) => {
  waiting.push(resolve);
  catFile.stdin.write(`${spec}\n`);
});

createServer(async (req, res) => {
  const blob = await read(`${commit}:${path}`);
  if (!blob) return res.writeHead(404).end();
  const body = JSON.stringify({ ...template, sha: blob.oid, size: blob.content.length, content: blob.content.toString('base64') });
  res.writeHead(200, { 'content-type': 'application/json;charset=utf-8', 'content-length': Buffer.byteLength(body) }).end(body);
}).listen(Number(process.env.BENCH_PORT), '127.0.0.1', () => process.send?.('listening'));
process.on('SIGTERM', () => process.exit(0));
