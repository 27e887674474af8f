// `pnpm bench`, part "pulls": (1) GET /repos/{owner}/{repo}/pulls?limit=50 of a repository
// holding 3,000 pull requests, at BENCH_CONNECTIONS connections (git facts are stored, so a
// list runs no git); (2) 16 concurrent merges of different pulls into one base: each must
// land (200) or answer a clean 409, and every landed head must be reachable from the base.
// The 3,000 pulls are one API-created pull copied in SQL (the collaboration database), since
// opening them through the API would time the seeding, not the list.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';

const PULLS = Number(process.env.BENCH_PULLS ?? 3000);
const MERGES = Number(process.env.BENCH_PULL_MERGES ?? 16);

function git(args, gitDir) {
  return new Promise((resolve) => {
    const child = spawn('git', [`--git-dir=${gitDir}`, ...args], { env: { PATH: process.env.PATH, LANG: 'C', GIT_CONFIG_NOSYSTEM: '1' } });
    child.stdout.resume();
    child.stderr.resume();
    child.on('close', (code) => resolve(code));
  });
}

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

export async function benchPulls({ baseUrl, token, owner, gitRoot, collaborationDbUrl, load, duration, log }) {
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
  const list = await load(`${baseUrl}api/v1${base}/pulls?state=all&limit=50`, token, duration);

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
  return { list, pulls: PULLS, merges: MERGES, landed, conflicts, other: statuses.length - landed - conflicts, lost };
}
