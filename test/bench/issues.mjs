// `pnpm bench`, part "issues": does a repository's issue list stay fast as it grows? Page 1
// of GET /api/v1/repos/{owner}/{repo}/issues (the default page: 30 open issues, newest
// first, each with its poster, labels and milestone) at 64 connections, in a repository with
// 100 issues and in one with 100,000. The small repository's issues are opened through the
// API; the large one's first issue too (so its counters and the poster's read-model row
// exist the way a live system has them), the rest go straight into collaboration's tables
// with generate_series, half of them labelled and in a milestone.
import autocannon from 'autocannon';
import pg from 'pg';

async function api(baseUrl, token, method, path, body) {
  const res = await fetch(`${baseUrl}api/v1${path}`, {
    method, headers: { authorization: `token ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A repository with a label and a milestone, and its first issue opened through the API. */
async function seededRepository(baseUrl, token, owner, name) {
  await api(baseUrl, token, 'POST', '/user/repos', { name });
  const base = `/repos/${owner}/${name}`;
  const label = await api(baseUrl, token, 'POST', `${base}/labels`, { name: 'bug', color: '#ee0701' });
  const milestone = await api(baseUrl, token, 'POST', `${base}/milestones`, { title: 'v1' });
  const first = await api(baseUrl, token, 'POST', `${base}/issues`, { title: 'Issue 1', body: 'The first issue', labels: [label.id], milestone: milestone.id });
  return { base, label, milestone, first };
}

async function bulkInsert(databaseUrl, repositoryId, posterId, labelId, milestoneId, total) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO issue (repository_id, index, poster_id, title, body, milestone_id, created_at, updated_at)
       SELECT $1, n, $2, 'Issue ' || n, 'Body of issue ' || n, CASE WHEN n % 2 = 0 THEN $3::bigint END, now(), now()
         FROM generate_series(2, $4::int) AS n`,
      [repositoryId, posterId, milestoneId, total],
    );
    await client.query(
      `INSERT INTO issue_label (issue_id, label_id) SELECT id, $2 FROM issue WHERE repository_id = $1 AND index > 1 AND index % 2 = 0`,
      [repositoryId, labelId],
    );
    await client.query(`UPDATE issue_index SET max_index = $2, open_issues = $2 WHERE repository_id = $1`, [repositoryId, total]);
    await client.query(`UPDATE milestone SET open_issues = (SELECT count(*) FROM issue WHERE milestone_id = $1) WHERE id = $1`, [milestoneId]);
    await client.query('COMMIT');
    await client.query('VACUUM ANALYZE issue');
    await client.query('VACUUM ANALYZE issue_label');
  } finally {
    await client.end();
  }
}

/** Page-1 latency of one GET under `connections` for `duration` s (also notifications.mjs). */
export function measure(url, token, connections, duration) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, headers: { authorization: `token ${token}` } }, (err, result) => {
      if (err) return reject(err);
      const failed = result.non2xx + result.errors + result.timeouts;
      if (failed) return reject(new Error(`${url}: ${failed} of ${result.requests.total} requests failed`));
      resolve({ rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total });
    });
  });
}

/** Page-1 load on `url` with the CPU each request cost each of `cpu`'s process groups (cpu-time.mjs). */
async function measureWithCpu(url, token, connections, duration, cpu, startCpuMeter) {
  const stop = await startCpuMeter(cpu);
  const r = await measure(url, token, connections, duration);
  return { ...r, cpu: await stop(r.requests) };
}

/**
 * `systems`: one booted system, or two builds side by side (BENCH_AB_ROOT) measured in
 * alternation so both see the same machine; each { name, baseUrl, token, collaborationDbUrl, cpu }.
 * @returns per system {{ small: object, large: object }}: req/s, p50 and p99 (ms) of page 1
 *   at each size and CPU µs per request per process group, the mean of `rounds` rounds (p99: the worst).
 */
export async function benchIssueList({ systems, owner, connections, duration, rounds, log, startCpuMeter }) {
  const targets = [];
  for (const system of systems) {
    const { baseUrl, token } = system;
    const small = await seededRepository(baseUrl, token, owner, 'bench-issues-small');
    for (let n = 2; n <= 100; n++) await api(baseUrl, token, 'POST', `${small.base}/issues`, { title: `Issue ${n}`, labels: n % 2 ? [] : [small.label.id] });
    const large = await seededRepository(baseUrl, token, owner, 'bench-issues-large');
    await bulkInsert(system.collaborationDbUrl, large.first.repository.id, large.first.user.id, large.label.id, large.milestone.id, 100_000);
    for (const [size, repo] of Object.entries({ small, large })) {
      const url = `${baseUrl}api/v1${repo.base}/issues`;
      const res = await fetch(url, { headers: { authorization: `token ${token}` } });
      log(`${system.name} issues ${size}: X-Total-Count ${res.headers.get('x-total-count')}, ${(await res.json()).length} on page 1`);
      await measure(url, token, connections, 3); // warm-up
      targets.push({ system: system.name, size, url, token, cpu: system.cpu });
    }
  }
  const results = new Map(targets.map((t) => [t, []]));
  for (let round = 1; round <= rounds; round++) {
    for (const t of targets) {
      const r = await measureWithCpu(t.url, t.token, connections, duration, t.cpu, startCpuMeter);
      results.get(t).push(r);
      const cpuText = Object.entries(r.cpu).map(([k, us]) => `${k} ${Math.round(us)}`).join(', ');
      log(`round ${round} ${t.system} issues ${t.size.padEnd(5)} ${Math.round(r.rps)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  CPU µs/req: ${cpuText}`);
    }
  }
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const summary = (rs) => ({
    rps: mean(rs.map((r) => r.rps)), p50: mean(rs.map((r) => r.p50)), p99: Math.max(...rs.map((r) => r.p99)),
    cpu: Object.fromEntries(Object.keys(rs[0].cpu).map((k) => [k, mean(rs.map((r) => r.cpu[k]))])),
  });
  const out = {};
  for (const t of targets) (out[t.system] ??= {})[t.size] = summary(results.get(t));
  return out;
}
