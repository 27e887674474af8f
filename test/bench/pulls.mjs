// `pnpm bench`, part "pulls": (1) GET /repos/{owner}/{repo}/pulls?limit=50 of a repository
// holding 3,000 pull requests, at BENCH_CONNECTIONS connections (git facts are stored, so a
// list runs no git); (2) 16 concurrent merges of different pulls into one base: each must
// land (200) or answer a clean 409, and every landed head must be reachable from the base.
// The 3,000 pulls are one API-created pull copied in SQL (the collaboration database), since
// opening them through the API would time the seeding, not the list. (3) The merge of a pull
// with 100 commits (each adding a file), p50 over BENCH_PULL_BIG_RUNS pulls, against the raw
// git commands such a merge runs on branches of the same shape: merge-tree beside
// `rev-list --left-right --count` (the merge runs both at once: the count is how many commits
// its push event lists, and 0 means already merged), then commit-tree (the merge writes that
// object itself) and update-ref; the branches are written straight into the bare repository by git fast-import.
// Each timed merge starts once every consumer of the run's events has caught up (`idle`): a
// push to a base with 1,500 open pulls re-checks each of them (as Gitea's test-patch queue
// does), and the merges before would otherwise leave that work running under the one timed.
// Its raw reference waits the same way, for the consumers of the merge just made. The same
// merges timed without waiting (and their raw references, right after them) are reported
// beside them.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';

const PULLS = Number(process.env.BENCH_PULLS ?? 3000);
const MERGES = Number(process.env.BENCH_PULL_MERGES ?? 16);
// Nine: on this VM the p50 of five merges moved by a quarter from one run of the bench to the next.
const BIG_RUNS = Number(process.env.BENCH_PULL_BIG_RUNS ?? 9);
const BIG_COMMITS = 100;

/** Runs git in the bare repository; resolves its exit code and its stdout. */
function gitOut(args, gitDir, input) {
  return new Promise((resolve) => {
    const child = spawn('git', [`--git-dir=${gitDir}`, ...args], { env: { PATH: process.env.PATH, LANG: 'C', GIT_CONFIG_NOSYSTEM: '1' } });
    const out = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.resume();
    child.on('close', (code) => resolve({ code, out: Buffer.concat(out).toString().trim() }));
    // Most commands never read stdin and may exit before it is closed.
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}

const git = async (args, gitDir) => (await gitOut(args, gitDir)).code;

/** `ref` (refs/heads/… by default) from `from` with BIG_COMMITS commits, each adding one file (git fast-import). */
async function hundredCommitBranch(gitDir, branch, from, ref = `refs/heads/${branch}`) {
  let stream = '';
  for (let i = 1; i <= BIG_COMMITS; i++) {
    const message = `${branch} commit ${i}\n`;
    const content = `${branch} ${i}\n`;
    stream += `commit ${ref}\ncommitter Bench <bench@example.com> ${1_700_000_000 + i} +0000\ndata ${Buffer.byteLength(message)}\n${message}`;
    if (i === 1) stream += `from ${from}\n`;
    stream += `M 100644 inline ${branch}/file-${i}.txt\ndata ${Buffer.byteLength(content)}\n${content}\n`;
  }
  const { code } = await gitOut(['fast-import', '--quiet'], gitDir, stream);
  if (code !== 0) throw new Error(`fast-import of ${branch} failed`);
}

const p50 = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

async function call(baseUrl, token, method, path, body) {
  const res = await fetch(`${baseUrl}api/v1${path}`, {
    method, headers: { authorization: `token ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

async function ok(promise, what) {
  const res = await promise;
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

const b64 = (s) => Buffer.from(s).toString('base64');

export async function benchPulls({ baseUrl, token, owner, gitRoot, collaborationDbUrl, load, wrkLoad, duration, log, cpuMeter, idle }) {
  const repo = await ok(call(baseUrl, token, 'POST', '/user/repos', { name: 'bench-pulls', auto_init: true }), 'creating bench-pulls');
  const base = `/repos/${owner}/bench-pulls`;
  await ok(call(baseUrl, token, 'POST', `${base}/contents/seed.txt`, { content: b64('seed\n'), new_branch: 'seed' }), 'seed branch');
  await ok(call(baseUrl, token, 'POST', `${base}/pulls`, { title: 'Seed pull', head: 'seed', base: 'main' }), 'seed pull');

  const db = new pg.Client({ connectionString: collaborationDbUrl });
  await db.connect();
  try {
    // Copies of the seed pull (closed, so they never count as duplicates), numbered on from it.
    await db.query(`
      WITH seed AS (SELECT i.*, pr.base_branch, pr.head_branch, pr.head_repo_id, pr.head_sha, pr.merge_base, pr.additions, pr.deletions, pr.changed_files
                      FROM issue i JOIN pull_request pr ON pr.issue_id = i.id WHERE i.repository_id = $1 AND i.index = 1),
      copies AS (
        INSERT INTO issue (repository_id, index, poster_id, title, body, is_closed, is_pull, created_at, updated_at)
        SELECT seed.repository_id, 1 + n, seed.poster_id, 'Pull ' || n, 'body', n % 2 = 0, true, now(), now() FROM seed, generate_series(1, $2 - 1) n
        RETURNING id, repository_id)
      INSERT INTO pull_request (issue_id, repository_id, base_branch, head_branch, head_repo_id, head_sha, merge_base, status, additions, deletions, changed_files)
      SELECT c.id, c.repository_id, seed.base_branch, seed.head_branch, seed.head_repo_id, seed.head_sha, seed.merge_base, 'mergeable', seed.additions, seed.deletions, seed.changed_files
      FROM copies c, seed`, [repo.id, PULLS]);
    await db.query(`UPDATE issue_index SET max_index = $2,
        open_pulls = (SELECT count(*) FROM issue WHERE repository_id = $1 AND is_pull AND NOT is_closed),
        closed_pulls = (SELECT count(*) FROM issue WHERE repository_id = $1 AND is_pull AND is_closed) WHERE repository_id = $1`, [repo.id, PULLS]);
  } finally {
    await db.end();
  }
  log(`pulls: seeded ${PULLS} pull requests`);
  const listUrl = `${baseUrl}api/v1${base}/pulls?state=all&limit=50`;
  // Twice: as a client that takes gzip (Go's net/http, browsers) and as one that asks for none.
  const measureList = async (headers, loader = load) => {
    await loader(listUrl, token, Math.min(3, duration), headers); // warm-up: JIT, pools, caches
    const stopMeter = cpuMeter ? await cpuMeter() : undefined;
    const list = await loader(listUrl, token, duration, headers);
    if (stopMeter) list.cpu = await stopMeter(list.requests);
    return list;
  };
  const gzipList = await measureList({ 'accept-encoding': 'gzip' });
  const list = await measureList({});
  // The same from wrk, whose parsing of the 313 KiB pages leaves the system more of the cores.
  const wrkList = wrkLoad ? await measureList({}, wrkLoad) : undefined;

  // Merges: MERGES branches from main, one new file each, one pull each, all merged at once.
  const pulls = [];
  for (let i = 0; i < MERGES; i++) {
    await ok(call(baseUrl, token, 'POST', `${base}/contents/merge-${i}.txt`, { content: b64(`${i}\n`), branch: 'main', new_branch: `merge-${i}` }), `branch merge-${i}`);
    pulls.push(await ok(call(baseUrl, token, 'POST', `${base}/pulls`, { title: `Merge ${i}`, head: `merge-${i}`, base: 'main' }), `pull merge-${i}`));
  }
  const statuses = await Promise.all(pulls.map((p) => call(baseUrl, token, 'POST', `${base}/pulls/${p.number}/merge`, { do: 'merge' }).then((r) => r.status)));
  const gitDir = join(gitRoot, owner.toLowerCase(), 'bench-pulls.git');
  let lost = 0;
  for (const [i, p] of pulls.entries()) {
    if (statuses[i] === 200 && (await git(['merge-base', '--is-ancestor', p.head.sha, 'refs/heads/main'], gitDir)) !== 0) lost++;
  }
  const landed = statuses.filter((s) => s === 200).length;
  const conflicts = statuses.filter((s) => s === 409).length;

  // A pull with 100 commits, merged through the API, against the plumbing run by hand.
  const apiMs = [];
  const busyMs = [];
  // Raw merges timed as the API's were: on a caught-up machine, or right after a merge.
  const rawMs = [];
  const rawBusyMs = [];
  // The count alone (what the reference gained when it began to run it beside merge-tree).
  const countMs = [];
  let idleWaitMs = 0;
  const caughtUp = async () => {
    const waitStarted = performance.now();
    await idle();
    idleWaitMs += performance.now() - waitStarted;
  };
  for (let run = 0; run < 2 * BIG_RUNS; run++) {
    // Even runs wait for the consumers to catch up first; odd ones start at once.
    const waits = run % 2 === 0 && idle;
    const main = (await gitOut(['rev-parse', 'refs/heads/main'], gitDir)).out;
    // The pull's head becomes a branch the way a user's does (here the branch API; a push
    // does the same), so the service knows it as it knows every branch. Written straight
    // into refs/heads/, it was unknown to the service's ref rows until the next full
    // rewrite, and each merge looked it up with a git process that a real merge never runs.
    await hundredCommitBranch(gitDir, `big-${run}`, main, `refs/bench/big-${run}`);
    await ok(call(baseUrl, token, 'POST', `${base}/branches`, { new_branch_name: `big-${run}`, old_ref_name: `refs/bench/big-${run}` }), `branch big-${run}`);
    await hundredCommitBranch(gitDir, `raw-${run}`, main);
    const pull = await ok(call(baseUrl, token, 'POST', `${base}/pulls`, { title: `Big ${run}`, head: `big-${run}`, base: 'main' }), `pull big-${run}`);
    if (waits) await caughtUp();
    let started = performance.now();
globalThis.__mt?.('b-start');
    const merged = await call(baseUrl, token, 'POST', `${base}/pulls/${pull.number}/merge`, { do: 'merge' });
globalThis.__mt?.(waits ? 'b-end-idle' : 'b-end-busy');
    (waits ? apiMs : busyMs).push(performance.now() - started);
    if (merged.status !== 200) throw new Error(`merge of big-${run}: ${merged.status} ${JSON.stringify(merged.body).slice(0, 300)}`);
    // The reference: the same merge by hand onto a scratch ref at main, on a machine as quiet
    // as the merge had: after the consumers of the merge's own events have caught up too.
    if (waits) await caughtUp();
    const baseSha = (await gitOut(['rev-parse', 'refs/heads/main'], gitDir)).out;
    started = performance.now();
    // The merge runs the trial merge and the count of the commits it brings side by side.
    const [trial] = await Promise.all([
      gitOut(['merge-tree', '--write-tree', baseSha, `refs/heads/raw-${run}`], gitDir),
      gitOut(['rev-list', '--left-right', '--count', `${baseSha}...refs/heads/raw-${run}`], gitDir),
    ]);
    const tree = trial.out.split('\n')[0];
    const commit = (await gitOut(['commit-tree', tree, '-p', baseSha, '-p', `refs/heads/raw-${run}`, '-m', `Merge raw-${run}`], gitDir)).out;
    await gitOut(['update-ref', `refs/bench/raw-${run}`, commit, ''], gitDir);
    (waits ? rawMs : rawBusyMs).push(performance.now() - started);
    if (waits) {
      started = performance.now();
      await gitOut(['rev-list', '--left-right', '--count', `${baseSha}...refs/heads/raw-${run}`], gitDir);
      countMs.push(performance.now() - started);
    }
  }
  const big = {
    runs: BIG_RUNS, commits: BIG_COMMITS, apiP50: p50(apiMs.length ? apiMs : busyMs), rawP50: p50(rawMs.length ? rawMs : rawBusyMs),
    busyP50: p50(busyMs), rawBusyP50: p50(rawBusyMs), idle: apiMs.length > 0, idleWaitMs, countP50: countMs.length ? p50(countMs) : undefined,
  };
  return { list, gzipList, wrkList, pulls: PULLS, merges: MERGES, landed, conflicts, other: statuses.length - landed - conflicts, lost, big };
}
