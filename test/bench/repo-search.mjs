// `pnpm bench`, part 4: does /repos/search stay fast as repositories grow? Page 1 of
// GET /api/v1/repos/search?q=... is timed with 100 repositories and again with 10,000
// (issue #4: within 1.5×), as an anonymous caller, so the visibility rule (public
// repositories of owners anyone may see) is part of every query. Rows go straight into
// repository's `owner` and `repository` tables with generate_series, as user-search.mjs
// does for users. 200 owners (a fifth organizations; 5% limited, 5% private profiles);
// repository names are "<word>-<word>-<4 hex digits of md5(n)>" from 40 × 50 words, so
// names spread like real ones; a fifth of repositories are private. Three queries: a
// selective one (part of one name's md5: 1 match at either size), a broad one (one word:
// 2% of repositories, all of which X-Total-Count must count; its page 1 holds 2 items at
// 100 repositories but 30 at 10,000, so it also measures presenting a fuller page) and a
// fragment in ~40% of names ("er": full pages of 30 at both sizes, thousands to count).
import { createHash } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';

const REQUESTS = Number(process.env.BENCH_SEARCH_REQUESTS ?? 300);
const OWNERS = 200;
const OWNER_ID_BASE = 10_000_000;
const FIRST_WORDS = ['awesome', 'tiny', 'fast', 'simple', 'modern', 'legacy', 'async', 'secure', 'open', 'micro',
  'cloud', 'data', 'web', 'go', 'rust', 'py', 'node', 'react', 'vue', 'cli', 'docker', 'k8s', 'ml', 'deep', 'quantum',
  'smart', 'home', 'game', 'pixel', 'retro', 'static', 'dynamic', 'lazy', 'happy', 'blue', 'red', 'green', 'dark',
  'light', 'zen'];
const SECOND_WORDS = ['parser', 'server', 'client', 'router', 'logger', 'cache', 'queue', 'store', 'api', 'sdk',
  'bot', 'engine', 'editor', 'compiler', 'linter', 'formatter', 'bundler', 'runner', 'scheduler', 'proxy', 'gateway',
  'dashboard', 'theme', 'plugin', 'toolkit', 'framework', 'library', 'utils', 'config', 'docs', 'website', 'blog',
  'notes', 'dotfiles', 'scripts', 'demo', 'example', 'template', 'starter', 'boilerplate', 'benchmark', 'tracker',
  'monitor', 'crawler', 'scraper', 'converter', 'generator', 'validator', 'wrapper', 'shell'];

async function withClient(url, work) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function insertOwners(client) {
  await client.query(
    `INSERT INTO owner (id, lower_name, name, type, visibility, full_name, email)
     SELECT $1::bigint + k, 'owner-' || k, 'owner-' || k,
            CASE WHEN k % 5 = 0 THEN 'organization' ELSE 'user' END,
            CASE WHEN k % 20 = 7 THEN 'limited' WHEN k % 20 = 13 THEN 'private' ELSE 'public' END,
            'Owner ' || k, 'owner-' || k || '@example.com'
       FROM generate_series(0, $2::int - 1) AS k`,
    [OWNER_ID_BASE, OWNERS],
  );
}

async function insertRepositories(client, from, to) {
  await client.query(
    `WITH first(words) AS (SELECT string_to_array($3, ',')), second(words) AS (SELECT string_to_array($4, ','))
     INSERT INTO repository (owner_id, owner_name, lower_name, name, is_private, default_branch, is_empty, size)
     SELECT $5::bigint + n % $6, 'owner-' || n % $6, lower(nm), nm, n % 5 = 3, 'main', false, n * 1000
       FROM generate_series($1::int, $2::int) AS n, first, second,
            LATERAL (SELECT first.words[1 + n % 40] || '-' || second.words[1 + (n / 40) % 50] || '-' || substr(md5(n::text), 1, 4) AS nm) l`,
    [from, to - 1, FIRST_WORDS.join(','), SECOND_WORDS.join(','), OWNER_ID_BASE, OWNERS],
  );
  // VACUUM, not only ANALYZE: a bulk insert leaves the new rows in the trigram index's GIN
  // pending list, which every search then scans linearly until autovacuum merges it; a
  // live system's index is merged (EXPLAIN ANALYZE: 3.9 ms before, 0.06 ms after at 10k rows).
  await client.query('VACUUM ANALYZE repository');
  await client.query('VACUUM ANALYZE owner');
}

function timeQuery(baseUrl, q) {
  return new Promise((resolve, reject) => {
    autocannon({
      url: `${baseUrl}api/v1/repos/search?q=${encodeURIComponent(q)}&page=1&limit=30`,
      connections: 1, amount: REQUESTS,
    }, (err, result) => {
      if (err) return reject(err);
      if (result.non2xx || result.errors) return reject(new Error(`repo search ${q}: ${result.non2xx + result.errors} requests failed`));
      resolve({ p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.average });
    });
  });
}

/** Returns rows for the README table: query, p50/p99/mean ms at 100 and 10,000 repositories, ratio. */
export async function benchRepoSearch({ baseUrl, repositoryDbUrl, log }) {
  // n = 42 is inserted in the first batch, so the selective query finds it at both sizes.
  const queries = { selective: createHash('md5').update('42').digest('hex').slice(0, 4), broad: 'parser', 'full pages': 'er' };
  const sizes = [100, 10_000];
  const results = {};
  const count = async (client) => Number((await client.query('SELECT count(*) FROM repository')).rows[0].count);
  await withClient(repositoryDbUrl, insertOwners);
  const existing = await withClient(repositoryDbUrl, count); // the other benchmarks' repositories
  let inserted = 0;
  for (const size of sizes) {
    await withClient(repositoryDbUrl, (client) => insertRepositories(client, inserted, size - existing));
    inserted = size - existing;
    const total = await withClient(repositoryDbUrl, count);
    for (const [kind, q] of Object.entries(queries)) {
      await timeQuery(baseUrl, q); // warm-up: plans and caches
      const r = await timeQuery(baseUrl, q);
      (results[kind] ??= []).push({ size: total, ...r });
      log(`repo search ${kind.padEnd(9)} ${String(total).padStart(6)} repositories  p50 ${r.p50} ms  p99 ${r.p99} ms  mean ${r.mean.toFixed(2)} ms`);
    }
  }
  return Object.entries(results).map(([kind, [small, large]]) => ({
    kind, q: queries[kind], small, large, ratio: large.mean / small.mean,
  }));
}
