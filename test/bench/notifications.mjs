// `pnpm bench`, part "notifications": how long after an issue comment its notification
// threads exist, and whether a user's notification list stays fast as it grows.
// - Lag: a watcher of a repository, and issue comments posted through the API at a steady
//   rate (100/s by default), each on its own issue so each makes exactly one thread for the
//   watcher; the lag of a comment is from the moment its POST was sent to the thread's
//   updated_at (written by collaboration's notification consumer, same clock).
// - List: page 1 of GET /api/v1/notifications for a user with 10 threads and for one with
//   10,000 (threads and their issues go straight into collaboration's tables).
import pg from 'pg';
import { processGroups, restartProfiles, startCpuMeter } from './cpu-time.mjs';
import { measure } from './issues.mjs';

async function api(baseUrl, auth, method, path, body) {
  const res = await fetch(`${baseUrl}api/v1${path}`, {
    method, headers: { authorization: auth, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

/** A user made by the site admin, and a token of theirs. */
async function newUser(baseUrl, adminAuth, username) {
  const password = `${username}-password-1`;
  await api(baseUrl, adminAuth, 'POST', '/admin/users', { username, email: `${username}@example.com`, password, must_change_password: false });
  const basic = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  const token = await api(baseUrl, basic, 'POST', `/users/${username}/tokens`, { name: 'bench', scopes: ['write:notification', 'write:repository', 'write:issue', 'write:user'] });
  const auth = `token ${token.sha1}`;
  const me = await api(baseUrl, auth, 'GET', '/user');
  return { id: me.id, username, auth, token: token.sha1 };
}

/** `count` issues in the repository, straight into collaboration's tables (no events). */
async function insertIssues(client, repositoryId, posterId, count) {
  const { rows: [{ max }] } = await client.query('SELECT coalesce(max(index), 0) AS max FROM issue WHERE repository_id = $1', [repositoryId]);
  await client.query(
    `INSERT INTO issue (repository_id, index, poster_id, title, created_at, updated_at)
     SELECT $1, $2::bigint + n, $3, 'Bench issue ' || ($2::bigint + n), now(), now() FROM generate_series(1, $4::int) AS n`,
    [repositoryId, Number(max), posterId, count]);
  await client.query(
    `INSERT INTO issue_index (repository_id, max_index, open_issues) VALUES ($1, $2, $2)
     ON CONFLICT (repository_id) DO UPDATE SET max_index = EXCLUDED.max_index, open_issues = EXCLUDED.open_issues`,
    [repositoryId, Number(max) + count]);
  const { rows } = await client.query('SELECT id, index FROM issue WHERE repository_id = $1 AND index > $2 ORDER BY index', [repositoryId, Number(max)]);
  return rows;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * @returns lag (p50/p99/max ms, comments, rate) and list (small/large req/s, p50, p99).
 */
export async function benchNotifications({ baseUrl, token, admin, owner, collaborationDbUrl, connections, duration, rounds, log, supervisorPid, postgresBackends }) {
  // The password only where a site admin's scope is needed (making users); a token elsewhere.
  const adminAuth = `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}`;
  const ownerAuth = `token ${token}`;
  const rate = Number(process.env.BENCH_NOTIFY_RATE ?? 100);
  const seconds = Number(process.env.BENCH_NOTIFY_SECONDS ?? 10);
  const total = rate * seconds;
  const db = new pg.Client({ connectionString: collaborationDbUrl });
  await db.connect();
  try {
    // Lag.
    const repo = await api(baseUrl, ownerAuth, 'POST', '/user/repos', { name: 'bench-notify-lag' });
    const base = `/repos/${owner}/bench-notify-lag`;
    const watcher = await newUser(baseUrl, adminAuth, 'bench-notify-watcher');
    await api(baseUrl, watcher.auth, 'PUT', `${base}/subscription`);
    const issues = await insertIssues(db, repo.id, repo.owner.id, total);
    // What a comment costs each process, its notification thread included (measured until
    // every answered comment has its thread).
    const groups = { ...processGroups(supervisorPid, ['gateway', 'collaboration', 'repository', 'identity', 'hooks']), PostgreSQL: postgresBackends };
    delete groups.spawned;
    delete groups.git;
    const stopMeter = await startCpuMeter(groups);
    // With BENCH_PROFILE_DIR: the comments' profile is kept apart (<pid>-<name>-1.cpuprofile).
    restartProfiles(supervisorPid);
    const sentAt = new Map();
    let retried = 0;
    const failed = [];
    const started = Date.now();
    const posts = [];
    for (let n = 0; n < total; n++) {
      const due = started + (n * 1000) / rate;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const issue = issues[n];
      posts.push((async () => {
        // A 503 (the gateway shedding load on a busy machine) is retried and counted; the
        // lag runs from the send that was answered.
        for (let attempt = 1; ; attempt++) {
          const sent = Date.now();
          try {
            const comment = await api(baseUrl, ownerAuth, 'POST', `${base}/issues/${issue.index}/comments`, { body: `comment ${n}` });
            sentAt.set(Number(comment.id), sent);
            return;
          } catch (err) {
            // Any other failure is counted (retrying a 500 could post the comment twice).
            if (!String(err.message).includes(': 503 ') || attempt >= 20) {
              failed.push(String(err.message).slice(0, 200));
              return;
            }
            retried++;
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        }
      })());
    }
    await Promise.all(posts);
    const answeredRate = sentAt.size / ((Date.now() - started) / 1000);
    log(`notifications: ${total} comments scheduled at ${rate}/s, ${sentAt.size} answered (${answeredRate.toFixed(1)}/s; ${retried} retries after 503, ${failed.length} failed${failed.length ? `: ${failed[0]}` : ''})`);
    const deadline = Date.now() + 600_000;
    let rows = [];
    // Until every answered comment has its thread (a POST that failed may still have
    // committed a comment: such threads are not waited for, nor counted).
    for (;;) {
      ({ rows } = await db.query('SELECT comment_id, updated_at FROM notification WHERE user_id = $1 AND repository_id = $2 AND comment_id > 0', [watcher.id, repo.id]));
      const matched = rows.filter((r) => sentAt.has(Number(r.comment_id))).length;
      if (matched >= sentAt.size || Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const cpu = await stopMeter(sentAt.size);
    restartProfiles(supervisorPid);
    log(`notifications: CPU per answered comment with its thread, ms: ${Object.entries(cpu).map(([name, us]) => `${name} ${(us / 1000).toFixed(1)}`).join(', ')}`);
    const lags = rows.flatMap((r) => (sentAt.has(Number(r.comment_id)) ? [new Date(r.updated_at).getTime() - sentAt.get(Number(r.comment_id))] : [])).sort((a, b) => a - b);
    const lag = { scheduled: total, rate, comments: sentAt.size, answeredRate, failed: failed.length, threads: lags.length, retried, p50: percentile(lags, 50), p99: percentile(lags, 99), max: lags.at(-1), cpu };
    log(`notifications lag: ${lags.length}/${total} threads, p50 ${lag.p50} ms, p99 ${lag.p99} ms, max ${lag.max} ms`);

    // List: 10 threads vs 10,000.
    const listRepo = await api(baseUrl, ownerAuth, 'POST', '/user/repos', { name: 'bench-notify-list' });
    const small = await newUser(baseUrl, adminAuth, 'bench-notify-small');
    const large = await newUser(baseUrl, adminAuth, 'bench-notify-large');
    const listIssues = await insertIssues(db, listRepo.id, listRepo.owner.id, 10_000);
    for (const [user, count] of [[small, 10], [large, 10_000]]) {
      await db.query(
        `INSERT INTO notification (user_id, repository_id, issue_id, source, status, comment_id, updated_by, created_at, updated_at)
         SELECT $1, $2, i.id, 'issue', 'unread', 0, $3, now() - (i.index || ' seconds')::interval, now() - (i.index || ' seconds')::interval
           FROM issue i WHERE i.repository_id = $2 AND i.index <= $4`,
        [user.id, listRepo.id, listRepo.owner.id, count]);
    }
    await db.query('VACUUM ANALYZE notification');
    void listIssues;
    const urls = { small: { url: `${baseUrl}api/v1/notifications`, token: small.token }, large: { url: `${baseUrl}api/v1/notifications`, token: large.token } };
    for (const [size, { url, token }] of Object.entries(urls)) {
      const res = await fetch(url, { headers: { authorization: `token ${token}` } });
      log(`notifications ${size}: X-Total-Count ${res.headers.get('x-total-count')}, ${(await res.json()).length} on page 1`);
      await measure(url, token, connections, 3); // warm-up
    }
    const results = { small: [], large: [] };
    const stopListMeter = await startCpuMeter(groups);
    let listed = 0;
    for (let round = 1; round <= rounds; round++) {
      for (const [size, { url, token }] of Object.entries(urls)) {
        const r = await measure(url, token, connections, duration);
        results[size].push(r);
        listed += r.requests;
        log(`round ${round} notifications ${size.padEnd(5)} ${Math.round(r.rps)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms`);
      }
    }
    const listCpu = await stopListMeter(listed);
    restartProfiles(supervisorPid); // with BENCH_PROFILE_DIR: the lists' profile is <pid>-<name>-2.cpuprofile
    log(`notifications list: CPU per request, µs: ${Object.entries(listCpu).map(([name, us]) => `${name} ${Math.round(us)}`).join(', ')}`);
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const summary = (rs) => ({ rps: mean(rs.map((r) => r.rps)), p50: mean(rs.map((r) => r.p50)), p99: Math.max(...rs.map((r) => r.p99)) });
    return { lag, list: { small: summary(results.small), large: summary(results.large) } };
  } finally {
    await db.end();
  }
}
