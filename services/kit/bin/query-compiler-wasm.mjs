// After `prisma generate`: makes the generated client read Prisma's query compiler (a 3.4 MB
// WebAssembly module shipped as base64 inside an ES module) from that module's text instead of
// importing it.
//
// Why: an imported ES module lives as long as the process, and with it both its source and
// its exported string — two 4.4 MB strings held by every database service for nothing once
// the WebAssembly is compiled (35 MiB over `pnpm start`'s four; `pnpm bench`, footprint
// part). Read as text, the string is garbage right after compiling. Prisma has no option to
// load the compiler another way, so the generated code is rewritten; if a Prisma upgrade
// changes that code, generation fails here rather than silently keeping the old cost.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const IMPORTED = /const \{ wasm \} = await import\("(@prisma\/client\/runtime\/query_compiler_[a-z]+_bg\.[a-z]+\.wasm-base64\.mjs)"\)\n(\s*)return await decodeBase64AsWasm\(wasm\)/;

/** Rewrites `<output>/internal/class.ts`; the output folder comes from the schema's generator block. */
export function readQueryCompilerFromText(schemaFile) {
  const schema = readFileSync(schemaFile, 'utf8');
  const output = /^\s*output\s*=\s*"([^"]+)"/m.exec(schema)?.[1];
  if (!output) throw new Error(`${schemaFile}: no generator output`);
  const classFile = path.join(path.dirname(schemaFile), output, 'internal', 'class.ts');
  const code = readFileSync(classFile, 'utf8');
  const match = IMPORTED.exec(code);
  if (!match) throw new Error(`${classFile}: Prisma's query compiler is no longer imported as this script expects (services/kit/bin/query-compiler-wasm.mjs)`);
  const [, specifier, indent] = match;
  const replacement = [
    `// Read as text, not imported, so its base64 is not held for the life of the process (services/kit/bin/query-compiler-wasm.mjs).`,
    `const { readFile } = await import('node:fs/promises')`,
    `const { createRequire } = await import('node:module')`,
    `const text = await readFile(createRequire(import.meta.url).resolve(${JSON.stringify(specifier)}), 'utf8')`,
    `return await decodeBase64AsWasm(text.slice(text.indexOf('"') + 1, text.lastIndexOf('"')))`,
  ].join(`\n${indent}`);
  writeFileSync(classFile, code.replace(IMPORTED, replacement));
}
