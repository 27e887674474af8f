// The contract document (Gitea 1.27.1's OpenAPI 2.0 file, DESIGN.md §1), loaded once, and
// the lookups everything else needs: operations by operationId, and which operation a
// concrete request path such as `/repos/alice/x/issues/3` belongs to.
import { readFileSync } from 'node:fs';
import { anvilExtensions } from './extensions.js';

export const CONTRACT_FILE = 'gitea-1.27.1.swagger.v1.json';

/** A JSON Schema as Swagger 2.0 writes it (plus Go-swagger's `x-*` extensions). */
export type SwaggerSchema = { [keyword: string]: unknown };

export interface SwaggerParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'body' | 'formData';
  required?: boolean;
  type?: string;
  format?: string;
  enum?: unknown[];
  schema?: SwaggerSchema;
  [extra: string]: unknown;
}

export interface SwaggerResponse {
  description?: string;
  schema?: SwaggerSchema;
  headers?: Record<string, SwaggerSchema>;
  $ref?: string;
}

export interface SwaggerOperation {
  operationId: string;
  summary?: string;
  tags?: string[];
  parameters?: SwaggerParameter[];
  responses: Record<string, SwaggerResponse>;
  [extra: string]: unknown;
}

export interface SwaggerDocument {
  swagger: '2.0';
  info: Record<string, unknown>;
  host?: string;
  basePath: string;
  schemes?: string[];
  paths: Record<string, Record<string, SwaggerOperation | SwaggerParameter[]>>;
  definitions: Record<string, SwaggerSchema>;
  responses: Record<string, SwaggerResponse>;
  [extra: string]: unknown;
}

export interface ContractOperation {
  operationId: string;
  /** Upper case, as HTTP writes it. */
  method: string;
  /** The path template under /api/v1, e.g. `/repos/{owner}/{repo}/issues/{index}`. */
  path: string;
  /** Path-level and operation-level parameters, merged (operation wins). */
  parameters: readonly SwaggerParameter[];
  responses: Readonly<Record<string, SwaggerResponse>>;
  raw: SwaggerOperation;
}

export interface OperationMatch {
  operation: ContractOperation;
  /** Path parameters, percent-decoded. */
  params: Record<string, string>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

// Gitea registers these routes with chi's `*` (branch, tag and file names contain `/`), so
// their last parameter swallows the rest of the path; every other `{param}` is one segment.
const CATCH_ALL = new Set([
  '/repos/{owner}/{repo}/archive/{archive}',
  '/repos/{owner}/{repo}/branches/{branch}',
  '/repos/{owner}/{repo}/tags/{tag}',
  '/repos/{owner}/{repo}/git/refs/{ref}',
  '/repos/{owner}/{repo}/contents/{filepath}',
  '/repos/{owner}/{repo}/contents-ext/{filepath}',
  '/repos/{owner}/{repo}/raw/{filepath}',
  '/repos/{owner}/{repo}/media/{filepath}',
  '/repos/{owner}/{repo}/editorconfig/{filepath}',
  // The head: `branch`, `owner:branch` or `owner/repo:branch` (GetPullRequestByBaseHead).
  '/repos/{owner}/{repo}/pulls/{base}/{head}',
]);

// `new URL(.., import.meta.url)` rather than a cwd-relative path: this file sits at
// gateway/src/contract/ under jest and at gateway/dist/contract/ after tsc, and both are
// two levels below gateway/, where contract/ lives.
export function contractFileUrl(name: string): URL {
  return new URL(`../../contract/${name}`, import.meta.url);
}

/** Gitea's document plus Anvil's own operations (extensions.ts); a clash with Gitea's is a bug. */
function withExtensions(document: SwaggerDocument): SwaggerDocument {
  const extra = anvilExtensions();
  for (const path of Object.keys(extra.paths)) if (document.paths[path]) throw new Error(`contract extension redefines ${path}`);
  for (const name of Object.keys(extra.definitions)) if (document.definitions[name]) throw new Error(`contract extension redefines ${name}`);
  return { ...document, paths: { ...document.paths, ...extra.paths }, definitions: { ...document.definitions, ...extra.definitions } };
}

let loaded: { document: SwaggerDocument; operations: ContractOperation[]; byId: Map<string, ContractOperation> } | undefined;

function load() {
  if (loaded) return loaded;
  const document = deepFreeze(withExtensions(JSON.parse(readFileSync(contractFileUrl(CONTRACT_FILE), 'utf8')) as SwaggerDocument));
  const operations: ContractOperation[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    const shared = (item.parameters as SwaggerParameter[] | undefined) ?? [];
    for (const method of METHODS) {
      const op = item[method] as SwaggerOperation | undefined;
      if (!op) continue;
      const own = op.parameters ?? [];
      const parameters = [...shared.filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)), ...own];
      operations.push({ operationId: op.operationId, method: method.toUpperCase(), path, parameters, responses: op.responses, raw: op });
    }
  }
  const byId = new Map(operations.map((o) => [o.operationId, o]));
  loaded = { document, operations, byId };
  return loaded;
}

// Frozen so that no caller (implementedDocument, a test) can change what others validate against.
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** The whole document, read-only. */
export function contractDocument(): SwaggerDocument {
  return load().document;
}

export function allOperations(): readonly ContractOperation[] {
  return load().operations;
}

export function operationById(operationId: string): ContractOperation | undefined {
  return load().byId.get(operationId);
}

// ---- matching a concrete path to its template -------------------------------------------

interface CompiledTemplate {
  operation: ContractOperation;
  segments: Array<{ literal: string } | { regex: RegExp; names: string[]; rank: 0 | 1 }>;
  catchAll: boolean;
}

let compiled: Map<string, CompiledTemplate[]> | undefined;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compileTemplate(operation: ContractOperation): CompiledTemplate {
  const segments = operation.path.split('/').slice(1).map((segment) => {
    if (!segment.includes('{')) return { literal: segment };
    const names: string[] = [];
    // A parameter with an enum is a constrained route in Gitea (`{diffType:diff|patch}`).
    const source = segment.replace(/\{([^}]+)\}|([^{]+)/g, (_, name: string | undefined, text: string | undefined) => {
      if (text !== undefined) return escapeRegex(text);
      names.push(name!);
      const param = operation.parameters.find((p) => p.in === 'path' && p.name === name);
      return param?.enum ? `(${param.enum.map((v) => escapeRegex(String(v))).join('|')})` : '(.+)';
    });
    // rank 1: a segment mixing text and parameters (`{sha}.{diffType}`) is more specific than a bare `{sha}`.
    return { regex: new RegExp(`^${source}$`), names, rank: segment.startsWith('{') && segment.endsWith('}') && names.length === 1 ? 0 as const : 1 as const };
  });
  return { operation, segments, catchAll: CATCH_ALL.has(operation.path) };
}

function templatesFor(method: string): CompiledTemplate[] {
  if (!compiled) {
    compiled = new Map();
    for (const op of allOperations()) {
      const list = compiled.get(op.method) ?? [];
      list.push(compileTemplate(op));
      compiled.set(op.method, list);
    }
  }
  return compiled.get(method) ?? [];
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Strips the query and an `/api/v1` prefix, so callers may pass either form. */
export function apiPath(path: string): string {
  const noQuery = path.split(/[?#]/, 1)[0]!;
  return noQuery.startsWith('/api/v1/') ? noQuery.slice('/api/v1'.length) : noQuery;
}

// Returns the rank of each concrete segment (2 literal, 1 mixed, 0 parameter, -1 swallowed
// by a catch-all), or undefined when the template does not match.
function tryMatch(template: CompiledTemplate, parts: string[], params: Record<string, string>): number[] | undefined {
  const { segments } = template;
  if (parts.length < segments.length || (parts.length > segments.length && !template.catchAll)) return undefined;
  const ranks: number[] = [];
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const last = i === segments.length - 1;
    const raw = last && template.catchAll ? parts.slice(i).join('/') : parts[i]!;
    if ('literal' in seg) {
      if (raw !== seg.literal) return undefined;
      ranks.push(2);
      continue;
    }
    if (raw === '') return undefined;
    const found = seg.regex.exec(raw);
    if (!found) return undefined;
    seg.names.forEach((name, k) => (params[name] = decode(found[k + 1]!)));
    ranks.push(seg.rank);
  }
  while (ranks.length < parts.length) ranks.push(-1);
  return ranks;
}

/**
 * The operation a request (method, concrete path under /api/v1) belongs to, or null when the
 * document has none. Like chi's routing tree, when several templates fit, the one whose
 * leftmost differing segment is literal wins: GET `/repos/issues/search` is issueSearchIssues,
 * not repoGet with owner "issues"; `/repos/a/b/pulls/3.diff` is the diff, not pull "3.diff".
 */
export function matchOperation(method: string, path: string): OperationMatch | null {
  const parts = apiPath(path).split('/').slice(1);
  let best: { match: OperationMatch; ranks: number[] } | undefined;
  for (const template of templatesFor(method.toUpperCase())) {
    const params: Record<string, string> = {};
    const ranks = tryMatch(template, parts, params);
    if (ranks && (!best || compareRanks(ranks, best.ranks) > 0)) best = { match: { operation: template.operation, params }, ranks };
  }
  return best?.match ?? null;
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}
