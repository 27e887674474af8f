// `pnpm bench`, part 2: does /users/search stay fast as users grow? Page 1 of
// GET /api/v1/users/search?q=... is timed with 100 users and again with 100,000 (issue #3:
// within 1.5×). The users are written straight into identity's `user` table with
// generate_series — creating 100k accounts through the API would spend hours in argon2,
// and search reads nothing else. Logins are 12 hex digits of md5(n) and full names come
// from 40 first × 50 last names, so the data has the spread of real names (a shared
// prefix on every login would defeat any substring index). Two queries: a selective one
// (part of one login: 1 match at either size) and a broad one (a last name: 2% of users,
// all of which X-Total-Count must count).
import { createHash } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';

const REQUESTS = Number(process.env.BENCH_SEARCH_REQUESTS ?? 300);
const FIRST_NAMES = ['Ada', 'Alan', 'Barbara', 'Brian', 'Claude', 'Dennis', 'Donald', 'Edsger', 'Frances', 'Grace',
  'Guido', 'Hedy', 'Ivan', 'James', 'John', 'Ken', 'Larry', 'Linus', 'Margaret', 'Mary', 'Niklaus', 'Radia', 'Richard',
  'Robin', 'Shafi', 'Sophie', 'Tim', 'Tony', 'Vint', 'Whitfield', 'Yukihiro', 'Adele', 'Anita', 'Bjarne', 'Carol',
  'Dana', 'Edgar', 'Fran', 'Gordon', 'Hal'];
const LAST_NAMES = ['Lovelace', 'Turing', 'Liskov', 'Kernighan', 'Shannon', 'Ritchie', 'Knuth', 'Dijkstra', 'Allen',
  'Hopper', 'Rossum', 'Lamarr', 'Sutherland', 'Gosling', 'McCarthy', 'Thompson', 'Wall', 'Torvalds', 'Hamilton', 'Keller',
  'Wirth', 'Perlman', 'Stallman', 'Milner', 'Goldwasser', 'Wilson', 'Lee', 'Hoare', 'Cerf', 'Diffie', 'Matsumoto',
  'Goldberg', 'Borg', 'Stroustrup', 'Shaw', 'Scott', 'Codd', 'Allen2', 'Moore', 'Abelson', 'Backus', 'Bachman',
  'Cray', 'Engelbart', 'Hellman', 'Kay', 'Lampson', 'Minsky', 'Naur', 'Pnueli'];

async function insertUsers(identityDbUrl, from, to) {
  const client = new pg.Client({ connectionString: identityDbUrl });
  await client.connect();
  try {
    await client.query(
      `WITH first(names) AS (SELECT string_to_array($3, ',')), last(names) AS (SELECT string_to_array($4, ','))
       INSERT INTO "user" (name, lower_name, full_name, email)
       SELECT login, login, first.names[1 + n % 40] || ' ' || last.names[1 + (n / 40) % 50], login || '@example.com'
       FROM generate_series($1::int, $2::int) AS n, first, last, LATERAL (SELECT substr(md5(n::text), 1, 12) AS login) l`,
      [from, to - 1, FIRST_NAMES.join(','), LAST_NAMES.join(',')],
    );
    // VACUUM, not only ANALYZE: the bulk insert leaves its rows in the trigram indexes' GIN
    // pending lists, which a live system's autovacuum has long merged (repo-search.mjs).
    await client.query('VACUUM ANALYZE "user"');
  } finally {
    await client.end();
  }
}

function timeQuery(baseUrl, token, q) {
  return new Promise((resolve, reject) => {
    autocannon({
      url: `${baseUrl}api/v1/users/search?q=${encodeURIComponent(q)}&page=1&limit=30`,
      connections: 1, amount: REQUESTS, headers: { authorization: `token ${token}` },
    }, (err, result) => {
      if (err) return reject(err);
      if (result.non2xx || result.errors) return reject(new Error(`search ${q}: ${result.non2xx + result.errors} requests failed`));
      resolve({ p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.average });
    });
  });
}

/** Returns rows for the README table: query, users, p50/p99 ms, ratio to the 100-user run. */
export async function benchUserSearch({ baseUrl, token, identityDbUrl, log }) {
  const queries = { selective: createHash('md5').update('42').digest('hex').slice(2, 10), broad: 'lovelace' };
  const sizes = [100, 100_000];
  const results = {};
  let inserted = 0;
  for (const size of sizes) {
    await insertUsers(identityDbUrl, inserted, size);
    inserted = size;
    for (const [kind, q] of Object.entries(queries)) {
      await timeQuery(baseUrl, token, q); // warm-up: plans and caches
      const r = await timeQuery(baseUrl, token, q);
      (results[kind] ??= []).push({ size, ...r });
      log(`search ${kind.padEnd(9)} ${String(size).padStart(7)} users  p50 ${r.p50} ms  p99 ${r.p99} ms  mean ${r.mean.toFixed(2)} ms`);
    }
  }
  return Object.entries(results).map(([kind, [small, large]]) => ({
    kind, q: queries[kind], small, large, ratio: large.mean / small.mean,
  }));
}
