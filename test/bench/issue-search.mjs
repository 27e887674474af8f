// `pnpm bench`, part "issue-search": GET /api/v1/repos/issues/search for a user (not a site
// admin: their visibility is computed) who sees 1,000 repositories of their own, each with
// 10 issues (10,000 in all; the default page of 30, newest first), at 64 connections. The
// user and their repositories are created through the API; their issues go
// straight into collaboration's tables (generate_series), one of them first through the API
// so the poster's read-model row exists as on a live system. Whatever the number of
// repositories, a search costs two gRPC calls and one SQL statement in collaboration
// (services/collaboration/test/issue-search.int.test.ts counts them).
import autocannon from 'autocannon';
import pg from 'pg';
import { processGroups, restartProfiles, startCpuMeter } from './cpu-time.mjs';

const REPOSITORIES = 1000;
const ISSUES_PER_REPOSITORY = 10;

async function api(baseUrl, token, method, path, body) {
  const res = await fetch(`${baseUrl}api/v1${path}`, {
    method, headers: { authorization: `token ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Runs `work` over `items`, `width` at a time. */
async function inBatches(items, width, work) {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
}

async function bulkInsert(databaseUrl, repositoryIds, posterId) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO issue (repository_id, index, poster_id, title, body, created_at, updated_at)
       SELECT r, n, $2, 'Issue ' || n || ' of ' || r, 'Body', now(), now()
         FROM unnest($1::bigint[]) AS r, generate_series(1, $3::int) AS n`,
      [repositoryIds, posterId, ISSUES_PER_REPOSITORY],
    );
    await client.query(
      `INSERT INTO issue_index (repository_id, max_index, open_issues) SELECT r, $2, $2 FROM unnest($1::bigint[]) AS r
       ON CONFLICT (repository_id) DO UPDATE SET max_index = EXCLUDED.max_index, open_issues = EXCLUDED.open_issues`,
      [repositoryIds, ISSUES_PER_REPOSITORY],
    );
    await client.query('COMMIT');
    await client.query('VACUUM ANALYZE issue');
  } finally {
    await client.end();
  }
}

/** autocannon at `connections`; requests that fail or outlast 60 s are counted, not fatal (the figure says how many). */
function measure(url, token, connections, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, timeout: 60, headers: { authorization: `token ${token}` } }, (err, result) => {
      if (err) return reject(err);
      resolve({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, failed: result.non2xx + result.errors + result.timeouts, done: result.requests.total });
    });
  });
}

/** A user made by the site admin (basic auth), and a token of theirs. */
async function newSearcher(baseUrl, adminBasic) {
  const username = `bench-searcher-${Date.now()}`;
  const password = `pw-${Math.random().toString(36).slice(2)}-Aa1`;
  const made = await fetch(`${baseUrl}api/v1/admin/users`, {
    method: 'POST', headers: { authorization: adminBasic, 'content-type': 'application/json' },
    body: JSON.stringify({ username, email: `${username}@example.com`, password, must_change_password: false }),
  });
  if (made.status !== 201) throw new Error(`creating the searcher: ${made.status} ${await made.text()}`);
  const res = await fetch(`${baseUrl}api/v1/users/${username}/tokens`, {
    method: 'POST', headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench', scopes: ['write:user', 'write:repository', 'write:issue'] }),
  });
  if (res.status !== 201) throw new Error(`creating the searcher's token: ${res.status} ${await res.text()}`);
  return { owner: username, token: (await res.json()).sha1 };
}

/** @returns {{ rps: number, p50: number, p99: number, failed: number, repositories: number, total: string }} the mean of `rounds` (p99: the worst). */
export async function benchIssueSearch({ baseUrl, adminBasic, collaborationDbUrl, connections, duration, rounds, log, supervisorPid, postgresBackends }) {
  const { owner, token } = await newSearcher(baseUrl, adminBasic);
  const names = Array.from({ length: REPOSITORIES }, (_, n) => `bench-search-${n}`);
  const ids = [];
  await inBatches(names, 8, async (name) => ids.push((await api(baseUrl, token, 'POST', '/user/repos', { name })).id));
  log(`issue-search: ${ids.length} repositories created`);
  const first = await api(baseUrl, token, 'POST', `/repos/${owner}/${names[0]}/issues`, { title: 'Opened through the API' });
  await bulkInsert(collaborationDbUrl, ids.filter((id) => id !== first.repository.id), first.user.id);
  const url = `${baseUrl}api/v1/repos/issues/search`;
  const check = await fetch(url, { headers: { authorization: `token ${token}` } });
  const total = check.headers.get('x-total-count');
  log(`issue-search: X-Total-Count ${total}, ${(await check.json()).length} on page 1`);
  // One request at a time: the latency of a search itself, without queueing.
  const alone = [];
  for (let n = 0; n < 20; n++) {
    const started = performance.now();
    await (await fetch(url, { headers: { authorization: `token ${token}` } })).arrayBuffer();
    alone.push(performance.now() - started);
  }
  alone.sort((a, b) => a - b);
  log(`issue-search alone: p50 ${alone[10].toFixed(1)} ms, max ${alone[19].toFixed(1)} ms of 20`);
  await measure(url, token, Math.min(connections, 4), 5); // warm-up
  const results = [];
  // Where a search's time goes: the CPU of each process per search, over every round.
  const groups = { ...processGroups(supervisorPid, ['gateway', 'repository', 'collaboration', 'identity']), PostgreSQL: postgresBackends };
  delete groups.spawned;
  delete groups.git;
  const stopMeter = await startCpuMeter(groups);
  restartProfiles(supervisorPid);
  for (let round = 1; round <= rounds; round++) {
    const r = await measure(url, token, connections, duration);
    results.push(r);
    log(`round ${round} issue search at ${connections} connections: ${Math.round(r.rps)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  (${r.failed} failed of ${r.done + r.failed})`);
  }
  const cpu = await stopMeter(results.reduce((n, r) => n + r.done, 0));
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return {
    rps: mean(results.map((r) => r.rps)), p50: mean(results.map((r) => r.p50)), p99: Math.max(...results.map((r) => r.p99)),
    failed: results.reduce((n, r) => n + r.failed, 0), repositories: ids.length, total, aloneP50: alone[10], aloneMax: alone[19], cpu,
  };
}
