// A bounded, seeded fuzzer of the gateway: it picks routes from the gateway's own route
// tables (so a new route is fuzzed the day it is added), fills their path parameters, query
// and JSON body (shaped by the contract's schema of that operation) with hostile values —
// deep nesting, huge strings, NULs, control and non-Latin-1 characters, bad percent-
// encodings, wrong types, path traversal, refs starting with `-` — and reports every
// answer that is a 5xx or slower than `slowMs`. The same seed gives the same requests;
// the seed is printed so a failure can be replayed with ANVIL_FUZZ_SEED.
import { operationById, contractDocument } from '../../gateway/src/contract/index.js';
import { apiRoutes } from '../../gateway/src/routes/index.js';
import { webArchiveRoutes } from '../../gateway/src/routes/repo-archives.js';
import { webRawRoutes } from '../../gateway/src/routes/repo-raw.js';

export interface FuzzOptions {
  baseUrl: string;
  /** A token of `owner`, who owns `repo`. */
  token: string;
  owner: string;
  repo: string;
  /** An organization `owner` belongs to, for `{org}` parameters. */
  org?: string;
  /** Also sign in as the site admin for some requests (Basic). */
  admin?: [string, string];
  requests: number;
  concurrency: number;
  slowMs: number;
  seed?: number;
}

export interface FuzzFinding {
  describe: string;
}

/** mulberry32: a tiny deterministic PRNG. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

// Path segments, already percent-encoded where they need to be (some are malformed on purpose).
const HOSTILE_SEGMENTS = [
  '%zz', '%', '%ff%fe', '%00', 'a%00b', '..', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '-x', '--upload-pack=evil', '--output=%2Ftmp%2Fx',
  'HEAD', '@', '%40%7B-1%7D', 'a..b', 'x.lock', 'a%20b', '%0A', '%01%02', '%7F', '%F0%9F%98%80', '%C3%A9t%C3%A9', '%E2%80%AE',
  'a'.repeat(300), 'b'.repeat(5000), '0', '-1', '99999999999999999999', '1e3', 'null', 'main', 'README.md', 'dir%2Ffile',
  'refs%2Fheads%2Fmain', '~1', 'a%5Cb', '%2F', '.git', 'CON', 'x*', 'x%3F', 'x%5B',
];

// Strings for JSON fields and query values (raw, not encoded).
function hostileString(random: Random): string {
  switch (Math.floor(random() * 18)) {
    case 0: return 'a'.repeat(pick(random, [256, 2049, 70_000, 300_000]));
    case 1: return 'x\u0000y';
    case 2: return '\u0001\u0002\u001b[31m\u007f';
    case 3: return '😀'.repeat(pick(random, [1, 60, 3000]));
    case 4: return '../../../../etc/passwd';
    case 5: return '-x';
    case 6: return '--upload-pack=touch /tmp/pwned';
    case 7: return 'refs/heads/main';
    case 8: return 'main';
    case 9: return '';
    case 10: return ' ';
    case 11: return 'a..b';
    case 12: return '\uD800';
    case 13: return 'b'.repeat(90_000);
    case 14: return 'http://127.0.0.1:1/x';
    case 15: return '%zz%00';
    case 16: return 'ｍａｉｎ\u202e';
    default: return `fuzz-${Math.floor(random() * 1e6)}`;
  }
}

function deepJson(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
}

// Values a route accepts but a careless implementation may not: odd characters within limits.
function plausibleString(random: Random): string {
  return pick(random, [
    `fuzz-${Math.floor(random() * 1e9)}`, 'main', '😀', 'é-ü', 'a b', 'x\u0001y', 'tab\there', 'new\nline', '../x', 'README.md', 'docs/a.md',
    'https://example.com/x', 'user@example.com', '', ' ', 'HEAD', 'v1.0', 'feature/x', '\u202e', 'ｍａｉｎ', 'null', '0', '%zz', '<script>',
  ]);
}

/** A body the route might accept: every field sensible except, now and then, an odd one. */
function plausibleValue(random: Random, raw: Record<string, unknown> | undefined, depth = 0): unknown {
  const schema = resolve(raw);
  if (!schema || depth > 4) return plausibleString(random);
  switch (schema.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const required = new Set((schema.required as string[] | undefined) ?? []);
      for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>)) {
        if (required.has(name) || random() < 0.5) out[name] = random() < 0.05 ? hostileValue(random, property, depth) : plausibleValue(random, property, depth + 1);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: pick(random, [0, 1, 2]) }, () => plausibleValue(random, schema.items as Record<string, unknown>, depth + 1));
    case 'integer':
    case 'number':
      return pick(random, [0, 1, 2, 3, 7, 100]);
    case 'boolean':
      return random() < 0.5;
    default:
      if (Array.isArray(schema.enum) && schema.enum.length) return pick(random, schema.enum);
      if (schema.format === 'email') return `fuzz${Math.floor(random() * 1e9)}@example.com`;
      if (schema.format === 'date-time') return pick(random, ['2026-01-01T00:00:00Z', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59Z']);
      return plausibleString(random);
  }
}

function hostileValue(random: Random, schema: Record<string, unknown> | undefined, depth: number): unknown {
  const roll = random();
  if (roll < 0.08) return deepJson(pick(random, [50, 500]));
  if (roll < 0.16) return pick(random, [null, true, -1, 0, 1.5, 2 ** 64, [], {}, ['x'], { a: 'b' }]);
  if (roll < 0.5 || !schema) return hostileString(random);
  return valueFor(random, schema, depth + 1);
}

function resolve(schema: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  const ref = schema?.$ref;
  if (typeof ref === 'string') return contractDocument().definitions[ref.split('/').pop()!] as Record<string, unknown>;
  return schema;
}

/** A value shaped like `schema`, with hostile leaves. */
function valueFor(random: Random, raw: Record<string, unknown> | undefined, depth = 0): unknown {
  const schema = resolve(raw);
  if (!schema || depth > 4) return hostileString(random);
  switch (schema.type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const out: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(properties)) {
        if (random() < 0.6) out[name] = hostileValue(random, property, depth);
      }
      if (random() < 0.1) out[hostileString(random).slice(0, 1000)] = 'extra';
      return out;
    }
    case 'array':
      return Array.from({ length: pick(random, [0, 1, 3]) }, () => hostileValue(random, schema.items as Record<string, unknown>, depth));
    case 'integer':
    case 'number':
      return pick(random, [-1, 0, 1, 2 ** 31, 2 ** 53, -(2 ** 63), 1.5, '1']);
    case 'boolean':
      return pick(random, [true, false, 'true', 0]);
    default:
      return Array.isArray(schema.enum) && random() < 0.3 ? pick(random, schema.enum) : hostileString(random);
  }
}

function rawBody(random: Random, schema: Record<string, unknown> | undefined): string {
  const roll = random();
  if (roll < 0.05) return `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
  if (roll < 0.1) return `{"a":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_001)}`;
  if (roll < 0.14) return pick(random, ['{', '{"a":', 'nul', '"\\ud800"', '{"a":"\\u0000"}', '[1,2', '\u0000', '{"a":1}garbage']);
  if (roll < 0.18) return JSON.stringify(hostileValue(random, undefined, 0));
  if (roll < 0.6) return JSON.stringify(plausibleValue(random, schema));
  return JSON.stringify(valueFor(random, schema));
}

interface Target {
  method: string;
  path: string;
  operationId: string;
  /** Routes of the web paths (`/{owner}/{repo}/archive/...`) are not under /api/v1. */
  web: boolean;
}

function targets(): Target[] {
  return [
    ...apiRoutes.map((r) => ({ method: r.method, path: r.path, operationId: r.operationId, web: false })),
    ...[...webArchiveRoutes, ...webRawRoutes].map((r) => ({ method: r.method, path: r.path, operationId: r.operationId, web: true })),
  ];
}

function fillPath(random: Random, target: Target, options: FuzzOptions, asAdmin: boolean): string {
  // A destructive request never names the real owner or repository, so the run keeps its target.
  const safe = target.method !== 'DELETE' && !asAdmin;
  return target.path.replace(/([:*])([A-Za-z_]+)/g, (_, kind: string, name: string) => {
    const hostile = random() < (name === 'owner' || name === 'repo' ? 0.15 : 0.35);
    if (name === 'org' && options.org) return safe && !hostile ? options.org : pick(random, HOSTILE_SEGMENTS);
    if (name === 'owner' || name === 'username' || name === 'org') return safe && !hostile ? options.owner : pick(random, HOSTILE_SEGMENTS);
    if (name === 'repo') return safe && !hostile ? options.repo : pick(random, HOSTILE_SEGMENTS);
    if (kind === '*' && !hostile) return pick(random, ['README.md', 'main/README.md', 'branch/main/README.md', 'main.zip', 'main.tar.gz', 'a/b/c', '%F0%9F%98%80.zip', 'new%20file.txt', `fuzz-${Math.floor(random() * 1e6)}.md`]);
    if (!hostile) return pick(random, ['1', '2', 'main', 'README.md', 'v1', 'HEAD', options.owner]);
    return pick(random, HOSTILE_SEGMENTS);
  });
}

function query(random: Random): string {
  if (random() < 0.5) return '';
  const names = ['ref', 'page', 'limit', 'q', 'sha', 'path', 'sort', 'state', 'type', 'token', 'uid'];
  const parts = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
    const value = random() < 0.3 ? pick(random, HOSTILE_SEGMENTS) : encodeURIComponent(hostileString(random).slice(0, 3000).replace(/[\uD800-\uDFFF]/g, 'x'));
    return `${pick(random, names)}=${value}`;
  });
  return `?${parts.join('&')}`;
}

export async function fuzzRoutes(options: FuzzOptions): Promise<FuzzFinding[]> {
  const seed = options.seed ?? Number(process.env.ANVIL_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`fuzz: seed ${seed} (replay with ANVIL_FUZZ_SEED=${seed}), ${options.requests} requests`);
  const random = prng(seed);
  const routes = targets();
  // All requests are drawn up front, so the run is the same whatever order answers come in.
  const plan = Array.from({ length: options.requests }, () => {
    const target = pick(random, routes);
    const who = random();
    const asAdmin = options.admin !== undefined && who < 0.2;
    const path = fillPath(random, target, options, asAdmin) + query(random);
    const operation = operationById(target.operationId);
    const bodySchema = operation?.parameters.find((p) => p.in === 'body')?.schema as Record<string, unknown> | undefined;
    const body = target.method === 'GET' ? undefined : rawBody(random, bodySchema);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (asAdmin) headers.authorization = `Basic ${Buffer.from(options.admin!.join(':')).toString('base64')}`;
    else if (who < 0.85) headers.authorization = `token ${options.token}`;
    return { method: target.method, url: `${options.baseUrl}${target.web ? '' : '/api/v1'}${path}`, body, headers };
  });

  const findings: FuzzFinding[] = [];
  const statuses = new Map<number | string, number>();
  const started = Date.now();
  let next = 0;
  async function worker(): Promise<void> {
    while (next < plan.length) {
      const request = plan[next++]!;
      const sent = Date.now();
      let status: number | string;
      try {
        const res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, signal: AbortSignal.timeout(options.slowMs * 4) });
        await res.arrayBuffer();
        status = res.status;
      } catch (err) {
        status = `no answer (${(err as Error).message})`;
      }
      const ms = Date.now() - sent;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      // ANVIL_FUZZ_SHOW=404 lists the requests answered with that status (to tune the fuzzer's reach).
      if (process.env.ANVIL_FUZZ_SHOW === String(status)) console.log(`${request.method} ${request.url.slice(0, 200)} ${request.body?.slice(0, 200) ?? ''}`);
      if (typeof status !== 'number' || status >= 500 || ms > options.slowMs) {
        const body = request.body === undefined ? '' : ` body(${request.body.length})=${request.body.slice(0, 300)}`;
        findings.push({ describe: `${request.method} ${request.url.slice(0, 300)}${body} → ${status} in ${ms} ms` });
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  const tally = [...statuses].sort(([a], [b]) => String(a).localeCompare(String(b))).map(([s, n]) => `${s}: ${n}`).join(', ');
  console.log(`fuzz: ${plan.length} requests in ${Date.now() - started} ms; answers ${tally}`);
  return findings;
}
