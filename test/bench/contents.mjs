// `pnpm bench`, part "contents": (1) POST /contents/{path} (one new file per request, one
// connection) against the raw git plumbing sequence the repository service performs for it
// (the same commands, run directly with child_process on a bare repository of the same
// shape), medians in A/B rounds; (2) 64 concurrent creates of different files on one
// branch: each must land (201) or get a clean 409, and `git rev-list --count` must grow by
// exactly the number of 201s (no lost commits).
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const PER_ROUND = Number(process.env.BENCH_CONTENTS_CREATES ?? 40);
const ROUNDS = Number(process.env.BENCH_CONTENTS_ROUNDS ?? 3);
const CONCURRENT = Number(process.env.BENCH_CONTENTS_CONCURRENT ?? 64);
const GIT_ENV = { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

function git(args, { gitDir, input, env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['-c', 'core.hooksPath=/dev/null', ...(gitDir ? [`--git-dir=${gitDir}`] : []), ...args], { env: { ...GIT_ENV, ...env } });
    const out = [];
    const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out).toString().trim())
      : reject(new Error(`git ${args.join(' ')} exited ${code}: ${Buffer.concat(err).toString().slice(0, 500)}`))));
    child.stdin.on('error', () => {}); // git may exit before reading stdin
    child.stdin.end(input ?? '');
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * What ChangeFiles runs for one new file (domain/file-changes.ts, git/*): resolve the branch
 * (cat-file --batch-check), look up the path and its parents (ls-tree), then on a temporary
 * index read-tree, hash-object -w --stdin, update-index --index-info, write-tree,
 * commit-tree, and update-ref with the expected old value.
 */
async function rawCreate(gitDir, path, content) {
  const head = (await git(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { gitDir, input: 'refs/heads/main^{commit}\nrefs/tags/main^{commit}\n' })).split(' ')[0];
  await git(['ls-tree', '-t', '-l', '-z', '--full-tree', head, '--', ...path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'))], { gitDir, env: { GIT_LITERAL_PATHSPECS: '1' } });
  const dir = await mkdtemp(join(tmpdir(), 'bench-index-'));
  const env = { GIT_INDEX_FILE: join(dir, 'index') };
  try {
    await git(['read-tree', head], { gitDir, env });
    const blob = await git(['hash-object', '-w', '--stdin'], { gitDir, input: content });
    await git(['update-index', '-z', '--index-info'], { gitDir, env, input: `100644 ${blob}\t${path}\0` });
    const tree = await git(['write-tree'], { gitDir, env });
    const who = { GIT_AUTHOR_NAME: 'Bench', GIT_AUTHOR_EMAIL: 'b@example.com', GIT_COMMITTER_NAME: 'Bench', GIT_COMMITTER_EMAIL: 'b@example.com' };
    const commit = await git(['commit-tree', '-F', '-', '-p', head, tree], { gitDir, env: who, input: `Add ${path}\n` });
    await git(['update-ref', 'refs/heads/main', commit, head], { gitDir });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function apiCreate(baseUrl, token, repoPath, path, content) {
  const res = await fetch(`${baseUrl}api/v1/repos/${repoPath}/contents/${path}`, {
    method: 'POST', headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ content: Buffer.from(content).toString('base64') }),
  });
  await res.arrayBuffer();
  return res.status;
}

async function createRepo(baseUrl, token, name) {
  const res = await fetch(`${baseUrl}api/v1/user/repos`, {
    method: 'POST', headers: { authorization: `token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, auto_init: true }),
  });
  if (res.status !== 201) throw new Error(`creating ${name}: ${res.status} ${await res.text()}`);
}

export async function benchContents({ baseUrl, token, owner, gitRoot, log }) {
  await createRepo(baseUrl, token, 'bench-contents');
  const repoPath = `${owner}/bench-contents`;
  const rawDir = await mkdtemp(join(tmpdir(), 'bench-contents-raw-'));
  const rawGit = join(rawDir, 'raw.git');
  await git(['init', '--bare', '-q', '-b', 'main', rawGit]);
  // Seeded like an auto-initialised repository: one commit holding README.md.
  const blob = await git(['hash-object', '-w', '--stdin'], { gitDir: rawGit, input: '# raw\n' });
  const tree = await git(['mktree'], { gitDir: rawGit, input: `100644 blob ${blob}\tREADME.md\n` });
  const first = await git(['commit-tree', '-m', 'Initial commit', tree], { gitDir: rawGit, env: { GIT_AUTHOR_NAME: 'B', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'B', GIT_COMMITTER_EMAIL: 'b@x' } });
  await git(['update-ref', 'refs/heads/main', first, '0'.repeat(40)], { gitDir: rawGit });

  const api = [];
  const raw = [];
  let n = 0;
  for (let round = 0; round <= ROUNDS; round++) {
    const apiRound = [];
    const rawRound = [];
    for (let i = 0; i < PER_ROUND; i++, n++) {
      const content = `file ${n}\n`;
      let t = performance.now();
      const status = await apiCreate(baseUrl, token, repoPath, `seq/${n}.txt`, content);
      if (status !== 201) throw new Error(`create seq/${n}.txt: ${status}`);
      apiRound.push(performance.now() - t);
      t = performance.now();
      await rawCreate(rawGit, `seq/${n}.txt`, content);
      rawRound.push(performance.now() - t);
    }
    // Round 0 warms up (JIT, pools, the credential cache) and is not counted.
    if (round > 0) {
      api.push(...apiRound);
      raw.push(...rawRound);
      log(`contents round ${round}: API p50 ${median(apiRound).toFixed(1)} ms, raw plumbing p50 ${median(rawRound).toFixed(1)} ms`);
    }
  }
  await rm(rawDir, { recursive: true, force: true });

  const gitDir = join(gitRoot, owner.toLowerCase(), 'bench-contents.git');
  const before = Number(await git(['rev-list', '--count', 'refs/heads/main'], { gitDir }));
  const statuses = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => apiCreate(baseUrl, token, repoPath, `race/${i}.txt`, `race ${i}\n`)));
  const after = Number(await git(['rev-list', '--count', 'refs/heads/main'], { gitDir }));
  const landed = statuses.filter((s) => s === 201).length;
  const conflicts = statuses.filter((s) => s === 409).length;
  const other = statuses.length - landed - conflicts;
  return { apiP50: median(api), rawP50: median(raw), samples: api.length, concurrent: CONCURRENT, landed, conflicts, other, commitsAdded: after - before };
}
