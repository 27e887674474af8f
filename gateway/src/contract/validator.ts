// Checks JSON against the contract (DESIGN.md §1): request bodies with Gitea's 422 answer,
// and every response the gateway sends (the e2e client calls validateResponse on each one).
// One ajv instance knows every `#/definitions/*` of the document, once per variant
// (schemas.ts); compiled validators are cached per operation and status.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { isValidRefName } from '@anvil/kit';
import { bindingMessage, fieldName } from './binding-messages.js';
import { documentedStatusOf } from './code-statuses.js';
import { contractDocument, matchOperation, operationById } from './document.js';
import { convertSchema, definitionsDocument, expectationFor, type Variant } from './schemas.js';

// ajv-formats is CommonJS: under NodeNext its default import is `module.exports`, whose
// `.default` is the plugin (TypeScript types the import as the module, hence the cast).
const addFormats = (addFormatsModule as unknown as { default: FormatsPlugin }).default;

// Gitea's own e-mail check (models/user ValidateEmail's pattern): unlike ajv-formats' full
// mode it accepts a dot-less domain such as `root@localhost`.
const GITEA_EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;

function isGoZero(value: unknown): boolean {
  return value === undefined || value === null || value === '' || value === 0 || value === false;
}

function createAjv(allErrors: boolean): Ajv {
  // allErrors: responses list every mismatch; requests pick Gitea's first. verbose: the
  // error keeps the schema and data, which the Go-style messages need.
  const ajv = new Ajv({ strict: false, allErrors, verbose: true });
  addFormats(ajv);
  ajv.addFormat('email', GITEA_EMAIL);
  ajv.addFormat('email-or-empty', (s: string) => s === '' || GITEA_EMAIL.test(s));
  // Go-swagger's integer widths; `type: integer` has already refused strings and fractions.
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) <= 2 ** 63 });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addFormat('uint64', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= 0 });
  ajv.addFormat('float', { type: 'number', validate: () => true });
  ajv.addFormat('double', { type: 'number', validate: () => true });
  // Gitea's `GitRefName` binding: empty (not sent) or a valid git ref name (field-limits.ts).
  ajv.addFormat('git-ref-name', { type: 'string', validate: (s: string) => s === '' || isValidRefName(s) });
  // `binding:"Required"`: a required field must be present AND non-zero (schemas.ts sets it).
  const goRequired = (names: string[], data: unknown): boolean => {
    if (!data || typeof data !== 'object' || Array.isArray(data)) return true;
    const zero = names.filter((n) => isGoZero((data as Record<string, unknown>)[n]));
    goRequired.errors = zero.map((n) => ({ keyword: 'goRequired', message: 'Required', params: { missingProperty: n } }));
    return zero.length === 0;
  };
  goRequired.errors = [] as Partial<ErrorObject>[];
  ajv.addKeyword({ keyword: 'goRequired', type: 'object', schemaType: 'array', errors: true, validate: goRequired });
  const variants: Variant[] = allErrors ? ['response-strict', 'response-loose', 'request'] : ['request'];
  for (const variant of variants) ajv.addSchema(definitionsDocument(variant));
  return ajv;
}

let instance: Ajv | undefined;
let firstErrorInstance: Ajv | undefined;
const cache = new Map<string, ValidateFunction>();

/** `firstError`: stop at the first mismatch (a huge body must not collect a million errors). */
function compiled(key: string, build: () => Record<string, unknown>, firstError = false): ValidateFunction {
  const cacheKey = firstError ? `${key} (first error)` : key;
  let fn = cache.get(cacheKey);
  if (!fn) {
    const ajv = firstError ? (firstErrorInstance ??= createAjv(false)) : (instance ??= createAjv(true));
    fn = ajv.compile(build());
    cache.set(cacheKey, fn);
  }
  return fn;
}

/**
 * Bodies with more values than this are checked up to their first mismatch only: collecting
 * every error of a 2 MiB array of wrong types took over a second of the event loop. Below
 * it, all errors are collected so the one reported is the one Gitea would report first.
 */
const ALL_ERRORS_UP_TO_VALUES = 5_000;

// ---- requests ------------------------------------------------------------------------------

/** How deep a request body may nest; no body of the contract comes near it. */
export const MAX_BODY_DEPTH = 32;

/**
 * How many values (strings, numbers, objects...) a request body may hold: a 2 MiB body of
 * tiny objects holds ~600,000, whose walk alone held the event loop for 200 ms.
 */
export const MAX_BODY_VALUES = 100_000;

/**
 * One pass over a client's JSON, iterative (a 10,000-deep body cannot overflow the stack):
 * drops nulls, which Go's decoder treats as "not sent" (a pointer stays nil, a value keeps
 * its zero), so no schema needs to admit them; and finds what no field may hold — nesting
 * deeper than MAX_BODY_DEPTH, more than MAX_BODY_VALUES values, or a NUL character (PostgreSQL refuses it in text, git in
 * names and messages) in a string or a property name.
 */
export function inspectBody(body: unknown): { data: unknown; values: number; problem?: string } {
  // Each entry: a parsed container, its copy to fill, its depth and its JSON Pointer path.
  type Pending = { source: unknown; copy: Record<string, unknown> | unknown[]; depth: number; path: string };
  const stack: Pending[] = [];
  let values = 0;
  const pointer = (path: string, key: string | number) => `${path}/${String(key).replace(/~/g, '~0').replace(/\//g, '~1')}`;
  // The path is built only for a container or a problem: most values are leaves.
  const copyOf = (value: unknown, depth: number, path: string, key?: string | number): unknown => {
    if (++values > MAX_BODY_VALUES) throw new BodyProblem(`[]: DeserializationError: more than ${MAX_BODY_VALUES} values`);
    if (typeof value === 'string') {
      if (value.includes('\0')) throw new BodyProblem(`[${fieldName(key === undefined ? path : pointer(path, key))}]: NUL characters are not allowed`);
      return value;
    }
    if (value === null || typeof value !== 'object') return value;
    if (depth > MAX_BODY_DEPTH) throw new BodyProblem(`[]: DeserializationError: JSON nested deeper than ${MAX_BODY_DEPTH} levels`);
    const copy: Record<string, unknown> | unknown[] = Array.isArray(value) ? [] : {};
    stack.push({ source: value, copy, depth, path: key === undefined ? path : pointer(path, key) });
    return copy;
  };
  let data: unknown;
  try {
    data = copyOf(body, 1, '');
    while (stack.length) {
      const { source, copy, depth, path } = stack.pop()!;
      if (Array.isArray(source)) {
        const items = copy as unknown[];
        for (let i = 0; i < source.length; i++) items[i] = copyOf(source[i], depth + 1, path, i);
        continue;
      }
      const fields = copy as Record<string, unknown>;
      for (const key of Object.keys(source as object)) {
        if (key.includes('\0')) throw new BodyProblem(`[${fieldName(path)}]: NUL characters are not allowed in property names`);
        const item = (source as Record<string, unknown>)[key];
        if (item !== null) fields[key] = copyOf(item, depth + 1, path, key);
      }
    }
  } catch (err) {
    if (err instanceof BodyProblem) return { data: undefined, values, problem: err.message };
    throw err;
  }
  return { data, values };
}

class BodyProblem extends Error {}

/**
 * The body a handler gets: an empty one (nothing, `null` or `""`) is the zero value of what
 * the operation takes — `{}` for an object, `""` for a text body — as Gitea binds it.
 */
export function bodyOrZero(operationId: string, body: unknown): unknown {
  if (body !== undefined && body !== null && body !== '') return body;
  const schema = operationById(operationId)?.parameters.find((p) => p.in === 'body')?.schema;
  return schema?.type === 'string' ? '' : {};
}

/** Whether the operation takes a JSON body (an `in: body` parameter), so the route parses one. */
export function operationHasBody(operationId: string): boolean {
  const operation = operationById(operationId);
  if (!operation) throw new Error(`operationHasBody: no operation "${operationId}" in the contract`);
  return operation.parameters.some((p) => p.in === 'body');
}

/**
 * null when `body` fits the operation's `in: body` parameter (or it has none), else the
 * message of Gitea's 422 APIValidationError, e.g. `[username]: Required`. Properties the
 * document does not list are ignored, as Go's decoder ignores them. Throws for an unknown
 * operationId (a programming error, not a client's).
 */
export function validateRequestBody(operationId: string, body: unknown): string | null {
  const operation = operationById(operationId);
  if (!operation) throw new Error(`validateRequestBody: no operation "${operationId}" in the contract`);
  const schema = operation.parameters.find((p) => p.in === 'body')?.schema;
  const isText = schema?.type === 'string';
  // An empty body decodes to the zero struct, which the binding rules then check (Required).
  let data: unknown;
  let values = 1;
  if (body === undefined || body === null || (body === '' && !isText)) data = isText ? '' : {};
  else {
    const inspected = inspectBody(body);
    if (inspected.problem) return inspected.problem;
    ({ data, values } = inspected);
  }
  if (!schema) return null;
  const validate = compiled(`request ${operationId}`, () => convertSchema(schema, 'request'), values > ALL_ERRORS_UP_TO_VALUES);
  if (validate(data)) return null;
  const bodyType = typeof schema.$ref === 'string' ? schema.$ref.split('/').pop()! : 'body';
  return bindingMessage(validate.errors ?? [], bodyType);
}

// ---- responses -----------------------------------------------------------------------------

export interface ResponseCheckOptions {
  /** Refuse properties the document does not list (Anvil may not invent fields). Default true. */
  strictProperties?: boolean;
  /**
   * Statuses every operation may answer though none declares them, checked against Gitea's
   * error body. Default [401]: Gitea 1.27.1's document declares 401 on no operation, yet its
   * auth middleware (reqToken, bad credentials) answers 401 on all of them (DESIGN.md §3).
   * Every other undeclared status is a contract violation.
   */
  crossCutting?: readonly number[];
}

const DEFAULT_CROSS_CUTTING: readonly number[] = [401];

function describeError(e: ErrorObject): string {
  const where = `body${e.instancePath}`;
  if (e.keyword === 'additionalProperties') return `${where} has property "${String(e.params.additionalProperty)}" the contract does not define`;
  if (e.keyword === 'required') return `${where} lacks required property "${String(e.params.missingProperty)}"`;
  if (e.keyword === 'enum') return `${where} is ${JSON.stringify(e.data)}, must be one of ${JSON.stringify(e.params.allowedValues)}`;
  const shown = e.keyword === 'type' || e.keyword === 'format' || e.keyword === 'pattern' ? ` (got ${JSON.stringify(e.data)?.slice(0, 80)})` : '';
  return `${where} ${e.message ?? e.keyword}${shown}`;
}

/**
 * Checks one response against the contract: the operation must exist for (method, path), must
 * declare `status`, and `body` must fit that status's schema. `body` is the parsed JSON, or
 * undefined / "" when the response had no JSON body (non-JSON bodies — diffs, raw files —
 * are the caller's to skip: pass undefined). Returns the problems, empty when valid.
 */
export function validateResponse(method: string, path: string, status: number, body: unknown, options: ResponseCheckOptions = {}): string[] {
  const match = matchOperation(method, path);
  if (!match) return [`${method.toUpperCase()} ${path} is not an operation of the contract`];
  const { operation } = match;
  const variant: Variant = options.strictProperties === false ? 'response-loose' : 'response-strict';
  // A status Gitea's handler answers though its document says another (code-statuses.ts)
  // carries the documented status's body.
  const documented = operation.responses[String(status)] ? undefined : documentedStatusOf(operation.operationId, status);
  const expectation = expectationFor(operation, documented ?? status, variant, options.crossCutting ?? DEFAULT_CROSS_CUTTING);
  const label = `${operation.method} ${operation.path} (${operation.operationId})`;
  if (!expectation) return [`status ${status} is not declared by ${label}; it declares ${Object.keys(operation.responses).join(', ')}`];
  const empty = body === undefined || body === '';
  switch (expectation.kind) {
    case 'any':
      return [];
    case 'none':
      return empty ? [] : [`${label} ${status} (${expectation.describe}) has no body, but one was sent`];
    case 'json': {
      if (empty) return expectation.bodyOptional ? [] : [`${label} ${status} must carry a JSON body (${expectation.describe}), got none`];
      const validate = compiled(`response ${variant} ${operation.operationId} ${status}`, () => expectation.schema);
      if (validate(body)) return [];
      // `if/else` (nullable refs) and `anyOf` add a summary line on top of the real errors.
      const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if');
      return [...new Set(errors.map(describeError))].map((e) => `${label} ${status}: ${e}`);
    }
  }
}

// ---- definitions -------------------------------------------------------------------------

/**
 * Checks `json` against one `#/definitions/<name>` of the document, as a response is checked
 * (strict by default: no property the document does not list). Webhook payloads are no
 * operation's response and the document defines no payload, but their parts are its
 * definitions (a payload's `repository` is a `Repository`, its `sender` a `User`, its
 * commits `PayloadCommit`s): the hooks tests check each part by name.
 */
export function validateDefinition(name: string, json: unknown, options: Pick<ResponseCheckOptions, 'strictProperties'> = {}): string[] {
  if (!contractDocument().definitions[name]) return [`${name} is not a definition of the contract`];
  const variant: Variant = options.strictProperties === false ? 'response-loose' : 'response-strict';
  const validate = compiled(`definition ${variant} ${name}`, () => convertSchema({ $ref: `#/definitions/${name}` }, variant));
  if (validate(json)) return [];
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if');
  return [...new Set(errors.map(describeError))].map((e) => `${name}: ${e}`);
}
