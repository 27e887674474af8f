#!/usr/bin/env node
// Stand-in for Prisma's native `schema-engine` binary, which the Prisma CLI
// downloads from a host we cannot reach. `bin/prisma.mjs` points the CLI here
// through PRISMA_SCHEMA_ENGINE_BINARY. Two ways the CLI runs us:
//   schema-engine --datamodels FILE... --datasource '{"url":...}'
//       JSON-RPC 2.0 on stdin/stdout, one object per line; every method is
//       passed to the WASM build of the same engine (@prisma/schema-engine-wasm).
//   schema-engine --datasource '{"url":...}' cli <can-connect-to-database|create-database|drop-database>
//       done with `pg` directly; errors go to stderr as JSON log lines.
// See /work/shared/notes/toolchain.md ("Prisma 7 without its download host").
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import * as wasmBindings from '@prisma/schema-engine-wasm/schema_engine_bg';

// ---- arguments -------------------------------------------------------------
const argv = process.argv.slice(2);
const datamodelPaths = [];
let datasource = {};
let cliCommand = null;
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--datamodels') datamodelPaths.push(argv[++i]);
  else if (argv[i] === '--datasource') datasource = JSON.parse(argv[++i]);
  else if (argv[i] === 'cli') cliCommand = argv[++i];
  else if (argv[i] === '--version' || argv[i] === '-V') {
    await loadWasm();
    console.log(`schema-engine-cli ${wasmBindings.version()} (wasm stand-in)`);
    process.exit(0);
  }
  else if (argv[i].startsWith('--')) i++; // --enabled-preview-features, --extension-types: not used by the WASM engine
}

// ---- connection settings ---------------------------------------------------
// Pitfall 2: give pg separate fields, never `connectionString`. adapter-pg
// spreads its config and overrides `database` for other databases, but a
// connectionString wins over `database`, so the "other" connection would
// silently reach the main database.
function pgConfig(url, database) {
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? undefined;
  const sslmode = u.searchParams.get('sslmode');
  return {
    host: u.hostname || 'localhost',
    port: Number(u.port || 5432),
    user: decodeURIComponent(u.username || 'postgres'),
    password: u.password ? decodeURIComponent(u.password) : undefined,
    database: database ?? (decodeURIComponent(u.pathname.slice(1)) || 'postgres'),
    ssl: sslmode && sslmode !== 'disable' && sslmode !== 'prefer' ? { rejectUnauthorized: false } : undefined,
    // Pitfall 5: `?schema=x` must become the search_path, or the engine's
    // unqualified statements land in `public`.
    options: schema ? `-c search_path="${schema}"` : undefined,
    // Pitfall 1: see TextCharClient.
    Client: TextCharClient,
    schema,
  };
}

// Pitfall 1: the engine's catalog queries return PostgreSQL's one-byte
// `"char"` type (oid 18, e.g. pg_class.relkind), which adapter-pg refuses
// ("UnsupportedNativeDataType"). pg already hands its value over as a string,
// so relabel those columns as `text` (oid 25) before adapter-pg looks.
const CHAR_OID = 18, TEXT_OID = 25;
function relabelChar(result) {
  for (const r of Array.isArray(result) ? result : [result]) {
    for (const f of r?.fields ?? []) if (f.dataTypeID === CHAR_OID) f.dataTypeID = TEXT_OID;
  }
  return result;
}
class TextCharClient extends pg.Client {
  query(...args) {
    const cb = args.findIndex((a) => typeof a === 'function');
    if (cb >= 0) {
      const done = args[cb];
      args[cb] = (err, res) => done(err, err ? res : relabelChar(res));
      return super.query(...args);
    }
    const ret = super.query(...args);
    return typeof ret?.then === 'function' ? ret.then(relabelChar) : ret;
  }
}

const quoteIdent = (name) => `"${name.replaceAll('"', '""')}"`;

// Runs one statement on the server's maintenance database (for CREATE/DROP DATABASE).
async function onMaintenanceDb(url, sql) {
  const { Client: _c, schema: _s, options: _o, ...cfg } = pgConfig(url, 'postgres');
  const client = new pg.Client(cfg);
  await client.connect();
  try { return await client.query(sql); } finally { await client.end(); }
}

// Pitfall 3: adapter-pg's own shadow database is created on the main
// connection and dropped without FORCE, which fails while the engine still
// holds connections to it, so it leaks. Create our own and drop it WITH (FORCE).
class StandInPg extends PrismaPg {
  constructor(url) {
    const { schema, ...config } = pgConfig(url);
    super(config, { schema });
    this.url = url;
  }
  async connectToShadowDb() {
    if (datasource.shadowDatabaseUrl) return new StandInPg(datasource.shadowDatabaseUrl).connect();
    const name = `prisma_shadow_${randomUUID().replaceAll('-', '')}`;
    await onMaintenanceDb(this.url, `CREATE DATABASE ${quoteIdent(name)}`);
    const { schema, ...config } = pgConfig(this.url, name);
    const adapter = await new PrismaPg(config, { schema }).connect();
    const dispose = adapter.dispose.bind(adapter);
    adapter.dispose = async () => {
      await dispose();
      await onMaintenanceDb(this.url, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    };
    return adapter;
  }
}

// ---- `cli` sub-commands ----------------------------------------------------
// The CLI skips the first stderr line and parses each following line as JSON.
function cliFail(message, errorCode) {
  const fields = { message, ...(errorCode ? { error_code: errorCode } : {}) };
  process.stderr.write(`schema-engine stand-in error\n${JSON.stringify({ level: 'ERROR', target: 'schema_engine::logger', fields })}`);
  process.exit(1);
}

// Maps pg errors to the P1xxx codes the CLI reacts to (P1003 makes `migrate dev` create the database).
function pgErrorCode(err, url) {
  const u = new URL(url);
  const where = `${u.hostname}:${u.port || 5432}`;
  const db = decodeURIComponent(u.pathname.slice(1));
  if (err.code === '3D000') return [`Database \`${db}\` does not exist on the database server at \`${where}\`.`, 'P1003'];
  if (err.code === '42P04') return [`Database \`${db}\` already exists on the database server at \`${where}\``, 'P1009'];
  if (err.code === '28P01' || err.code === '28000') return [`Authentication failed against database server at \`${where}\`.`, 'P1000'];
  if (['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ETIMEDOUT'].includes(err.code)) return [`Can't reach database server at \`${where}\``, 'P1001'];
  return [err.message, undefined];
}

async function runCli(command) {
  const url = datasource.url;
  if (!url) cliFail('No datasource url was given (--datasource \'{"url":...}\').');
  const db = pgConfig(url).database;
  try {
    if (command === 'can-connect-to-database') {
      const { Client: _c, schema: _s, ...cfg } = pgConfig(url);
      const client = new pg.Client(cfg);
      await client.connect();
      await client.end();
    } else if (command === 'create-database') {
      await onMaintenanceDb(url, `CREATE DATABASE ${quoteIdent(db)}`);
      console.log(`Database '${db}' was successfully created.`);
    } else if (command === 'drop-database') {
      await onMaintenanceDb(url, `DROP DATABASE IF EXISTS ${quoteIdent(db)} WITH (FORCE)`);
      console.log(`The database '${db}' was successfully dropped.`);
    } else cliFail(`Unknown cli command: ${command}`);
  } catch (err) {
    cliFail(...pgErrorCode(err, url));
  }
}

// ---- JSON-RPC server -------------------------------------------------------
// Node 20 cannot `import` a .wasm file, so instantiate it by hand against the
// package's JS glue, exactly as its entry module would.
async function loadWasm() {
  globalThis.PRISMA_WASM_PANIC_REGISTRY = { message: '', set_message(m) { this.message = m; } };
  const require = createRequire(import.meta.url);
  const wasmPath = require.resolve('@prisma/schema-engine-wasm/schema_engine_bg').replace(/\.js$/, '.wasm');
  const { instance } = await WebAssembly.instantiate(readFileSync(wasmPath), { './schema_engine_bg.js': wasmBindings });
  wasmBindings.__wbg_set_wasm(instance.exports);
  instance.exports.__wbindgen_start();
}

const send = (msg) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...msg })}\n`);
let nextPrintId = 1_000_000;
const datamodels = datamodelPaths.map((p) => [p, readFileSync(p, 'utf8')]);
let enginePromise;
function engine() {
  // Created on first use, so commands that never touch the database
  // (`generate`, `diff` between schema files) do not need one.
  enginePromise ??= loadWasm().then(() =>
    wasmBindings.SchemaEngine.new(
      { datamodels: datamodels.length ? datamodels : undefined },
      (log) => { if (process.env.DEBUG_SCHEMA_ENGINE) process.stderr.write(`${log}\n`); },
      bindMigrationAwareSqlAdapterFactory(new StandInPg(datasource.url ?? 'postgresql://localhost/postgres')),
    ));
  return enginePromise;
}

async function call(method, params) {
  switch (method) {
    case 'getDatabaseVersion': return (await engine()).version(params);
    case 'createDatabase': {
      const url = params?.datasource?.url ?? datasource.url;
      await onMaintenanceDb(url, `CREATE DATABASE ${quoteIdent(pgConfig(url).database)}`);
      return { databaseName: pgConfig(url).database };
    }
    case 'diff': {
      // The native engine hands the diff to the CLI as a `print` request;
      // the WASM one returns it in `stdout`.
      const { stdout, ...rest } = await (await engine()).diff(params);
      if (stdout) send({ id: nextPrintId++, method: 'print', params: { content: stdout.replace(/\n$/, '') } });
      return { ...rest, stdout: null };
    }
    default: {
      const e = await engine();
      if (typeof e[method] !== 'function') throw new Error(`Unknown method: ${method}`);
      try {
        return await e[method](params);
      } catch (err) {
        // Pitfall 4: only devDiagnostic/diagnoseMigrationHistory/diff receive
        // the adapter factory; evaluateDataLoss and createMigration rely on the
        // migrations' schema that those cached from a shadow database. When
        // `migrate dev` first applied pending migrations, that cache is stale
        // and the engine fails with "shadow DB must be provided through an
        // external factory". Refill the cache with devDiagnostic, then retry once.
        if (!/shadow DB must be provided through an external factory/.test(String(err?.message)) || !params?.migrationsList) throw err;
        await e.devDiagnostic({ migrationsList: params.migrationsList, filters: params.filters ?? { externalTables: [], externalEnums: [] } });
        return await e[method](params);
      }
    }
  }
}

function rpcError(err) {
  const panic = err instanceof WebAssembly.RuntimeError;
  const message = panic ? globalThis.PRISMA_WASM_PANIC_REGISTRY.message || err.message : err?.message ?? String(err);
  return { code: 4466, message: 'An error happened. Check the data field for details.',
    data: { is_panic: panic, message, error_code: err?.code ?? null, meta: err?.meta ?? null } };
}

async function serve() {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  let queue = Promise.resolve(); // the engine is not re-entrant: one request at a time
  rl.on('line', (line) => {
    if (!line.trim()) return;
    const msg = JSON.parse(line);
    if (msg.method === undefined) return; // the CLI's reply to our `print` request
    queue = queue.then(async () => {
      try { send({ id: msg.id, result: (await call(msg.method, msg.params)) ?? null }); }
      catch (err) { send({ id: msg.id, error: rpcError(err) }); }
    });
  });
  // stdin closes when the CLI stops us.
  rl.on('close', () => queue.finally(() => process.exit(0)));
}

if (cliCommand) await runCli(cliCommand);
else await serve();
