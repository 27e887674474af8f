#!/usr/bin/env node
// Runs the Prisma CLI (the `prisma` dependency of @anvil/kit) with the WASM
// schema-engine stand-in, so no native engine is ever downloaded.
//
// Usage, from a service folder (services/<ctx>/):
//   node ../kit/bin/prisma.mjs generate
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5432/anvil_<ctx> node ../kit/bin/prisma.mjs migrate dev --name init
//   DATABASE_URL=... node ../kit/bin/prisma.mjs migrate deploy
//
// How the schema and the database URL are found:
// - If the service has a prisma.config.{ts,mts,js,mjs,cjs,cts}, Prisma loads it
//   from the working directory as usual. It should read `process.env.DATABASE_URL`
//   (prisma.config.ts does NOT load .env by itself) and only set `datasource`
//   when it is defined, so `generate` works without a database.
// - Otherwise (only prisma/schema.prisma) we pass --config prisma.fallback-config.mjs,
//   which points at ./prisma/schema.prisma and ./prisma/migrations and takes
//   the URL from DATABASE_URL the same way.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { readQueryCompilerFromText } from './query-compiler-wasm.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const prismaCli = require.resolve('prisma/build/index.js');

const env = { ...process.env };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(here, 'schema-engine.mjs');
// Nothing to report to Prisma's servers from here, and they are unreachable anyway.
env.CHECKPOINT_DISABLE ??= '1';
env.PRISMA_HIDE_UPDATE_MESSAGE ??= '1';

const args = process.argv.slice(2);
// Commands that read a schema/config; `--config` is not valid for e.g. `version`.
const SCHEMA_COMMANDS = new Set(['generate', 'migrate', 'db', 'validate', 'format', 'studio']);
const hasOwnConfig = ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].some((ext) => existsSync(`prisma.config.${ext}`));
if (SCHEMA_COMMANDS.has(args[0]) && !hasOwnConfig && !args.includes('--config') && !args.includes('--schema')) {
  args.push('--config', path.join(here, 'prisma.fallback-config.mjs'));
}

const result = spawnSync(process.execPath, [prismaCli, ...args], { stdio: 'inherit', env });
if (result.error) throw result.error;
if (args[0] === 'generate' && result.status === 0) {
  readQueryCompilerFromText(path.resolve('prisma', 'schema.prisma'));
}
process.exit(result.status ?? (result.signal ? 1 : 0));
