// Turns the contract's Swagger 2.0 schemas into JSON Schema that ajv can check, in three
// variants, and says which schema a given operation's response status must satisfy.
//
// Swagger 2.0 (as Go-swagger writes it for Gitea) is not quite JSON Schema:
// - `type: file` (raw downloads) is no JSON type: any body passes, the caller skips those.
// - `x-nullable` / `x-omitempty` are extensions; only `x-nullable: true` means something
//   (it admits null) and every other `x-*`, `example` and `description` is dropped.
// - `format: int64 | int32 | uint64` are registered with ajv by validator.ts.
// - a response is `{ $ref: '#/responses/<Name>' }`, whose `schema` holds the body; error
//   responses (`error`, `forbidden`, `validationError`...) have no schema: Go-swagger turned
//   the fields of Gitea's APIError struct into `headers`, so those headers ARE the body fields.
import { contractDocument, type ContractOperation, type SwaggerResponse, type SwaggerSchema } from './document.js';
import { DEFAULT_STRING_LIMIT, FIELD_LIMITS, GIT_REF_NAME_FIELDS } from './field-limits.js';

export type JsonSchema = Record<string, unknown>;

/** `response-strict` forbids properties the document does not list; `request` never does (Go's json ignores them). */
export type Variant = 'response-strict' | 'response-loose' | 'request';

export function variantId(variant: Variant): string {
  return `https://anvil.invalid/contract/${variant}.json`;
}

const DROPPED = new Set(['description', 'example', 'title']);

// THE NULL RULE (responses). Go's encoding/json writes null only for a nil pointer, slice,
// map or interface; value types (string, int64, bool, time.Time) are never null. The
// document does not say which fields are pointers, so null is admitted exactly where a Go
// nil can stand behind the schema:
//   - a `$ref` to a definition: pointer to struct (`milestone`, `assignee`, `pull_request`,
//     `parent`, `repository` of a notification...);
//   - `type: array`: a nil slice (`assignees: null` on an issue with none);
//   - `type: object`: a nil map;
//   - `type: string` with `format: date-time` or `date`: *time.Time (`closed_at`, `due_date`,
//     `merged_at`, `due_on`, a milestone's `updated_at`); Go never emits "" for a time;
//   - anything with `x-nullable: true` (none in 1.27.1, honoured should it appear);
//   - untyped properties (`{}`: interface{}) admit null anyway.
// Never null: plain strings, integers, numbers, booleans, enums. The top-level body is never
// null either (Gitea's list handlers allocate their slices, so an empty list is `[]`).
function admitsNull(property: SwaggerSchema): boolean {
  if (property['x-nullable'] === true || '$ref' in property) return true;
  if (property.type === 'array' || property.type === 'object') return true;
  return property.type === 'string' && (property.format === 'date-time' || property.format === 'date');
}

function withNull(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string') {
    const out: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    return out;
  }
  // `$ref` (and untyped): `if/else` keeps ajv's errors to the referenced schema's own.
  return { if: { type: 'null' }, else: schema };
}

/** Converts one Swagger schema (a definition, a property, an inline response schema). */
export function convertSchema(node: SwaggerSchema, variant: Variant): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-') || DROPPED.has(key)) continue;
    switch (key) {
      case '$ref':
        out.$ref = String(value).replace(/^#\/definitions\//, `${variantId(variant)}#/definitions/`);
        break;
      case 'type':
        if (value !== 'file') out.type = value;
        break;
      case 'format':
        // Responses: Go's zero value "" is what Gitea writes for an organisation without an
        // e-mail (as a repository owner) and similar; requests keep the plain email format.
        out.format = value === 'email' && variant !== 'request' ? 'email-or-empty' : value;
        break;
      case 'properties':
        out.properties = Object.fromEntries(Object.entries(value as Record<string, SwaggerSchema>).map(([name, prop]) => [name, convertProperty(prop, variant)]));
        break;
      case 'items':
        out.items = Array.isArray(value) ? value.map((v) => convertSchema(v as SwaggerSchema, variant)) : convertSchema(value as SwaggerSchema, variant);
        break;
      case 'additionalProperties':
        out.additionalProperties = typeof value === 'object' && value !== null ? convertSchema(value as SwaggerSchema, variant) : value;
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        out[key] = (value as SwaggerSchema[]).map((v) => convertSchema(v, variant));
        break;
      default:
        out[key] = value;
    }
  }
  if (variant === 'response-strict' && out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  // Requests: no string is unbounded (field-limits.ts); definitionsDocument sets Gitea's own.
  if (variant === 'request' && out.type === 'string' && out.maxLength === undefined) out.maxLength = DEFAULT_STRING_LIMIT;
  // Gitea's `binding:"Required"` rejects a zero value ("" / 0 / false) as it does a missing
  // field, so requests check `goRequired` (validator.ts) instead of JSON Schema's `required`;
  // Go-swagger lists `required` in struct field order, the order Gitea reports them in.
  if (variant === 'request' && Array.isArray(out.required)) {
    if (out.required.length) out.goRequired = out.required;
    delete out.required;
  }
  return out;
}

function convertProperty(property: SwaggerSchema, variant: Variant): JsonSchema {
  const converted = convertSchema(property, variant);
  // Requests: Go's decoder treats null as "not sent" for every field; validator.ts strips
  // nulls before checking, so no schema needs to admit them.
  return variant !== 'request' && admitsNull(property) ? withNull(converted) : converted;
}

// Fields sent that the document does not list, so strict mode must not refuse them:
// - real Gitea 1.27's modules/structs/user.go `User.MarshalJSON` adds `username` (= `login`)
//   "for backward compatibility", and clients read it;
// - Anvil's spec asks the general repository settings to carry the maximum repository
//   creation limit (its JSON name is not given; `max_creation_limit` follows the setting).
const SENT_BUT_UNDOCUMENTED: Record<string, Record<string, SwaggerSchema>> = {
  User: { username: { type: 'string' } },
  GeneralRepoSettings: { max_creation_limit: { type: 'integer', format: 'int64' } },
};

// Fields the document marks `required: true` whose Go struct has no `binding:"Required"`,
// so Gitea accepts their zero value: `source_id: 0` (the local login source) is what tea
// and the Go SDK send when editing a local user.
const REQUIRED_IN_DOCUMENT_ONLY: Record<string, readonly string[]> = {
  EditUserOption: ['source_id'],
};

/** `{ $id, definitions }` for one variant: what ajv resolves every `$ref` against. */
export function definitionsDocument(variant: Variant): JsonSchema {
  const definitions = Object.fromEntries(
    Object.entries(contractDocument().definitions).map(([name, schema]) => {
      const extra = SENT_BUT_UNDOCUMENTED[name];
      let full = extra ? { ...schema, properties: { ...(schema.properties as object), ...extra } } : schema;
      const lenient = REQUIRED_IN_DOCUMENT_ONLY[name];
      if (lenient && variant === 'request' && Array.isArray(full.required)) {
        full = { ...full, required: (full.required as string[]).filter((field) => !lenient.includes(field)) };
      }
      const converted = convertSchema(full, variant);
      return [name, variant === 'request' ? withFieldRules(name, converted) : converted];
    }),
  );
  return { $id: variantId(variant), definitions };
}

/** A request definition with Gitea's MaxSize and GitRefName rules on its fields (field-limits.ts). */
function withFieldRules(definition: string, schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return schema;
  for (const [field, limit] of Object.entries(FIELD_LIMITS[definition] ?? {})) {
    const isItems = field.endsWith('[]');
    const property = properties[isItems ? field.slice(0, -2) : field];
    const target = isItems ? (property?.items as JsonSchema | undefined) : property;
    if (!target) throw new Error(`field-limits.ts: ${definition}.${field} is not a string field of the contract`);
    if (Number.isFinite(limit)) target.maxLength = limit;
    else delete target.maxLength;
  }
  for (const field of GIT_REF_NAME_FIELDS[definition] ?? []) {
    const property = properties[field];
    if (!property) throw new Error(`field-limits.ts: ${definition}.${field} is not a field of the contract`);
    property.format = 'git-ref-name';
  }
  return schema;
}

// ---- what a response status must carry ---------------------------------------------------

export type Expectation =
  /** The body must be JSON matching `schema`; `bodyOptional` when it may also be empty or non-JSON. */
  | { kind: 'json'; schema: JsonSchema; bodyOptional: boolean; describe: string }
  /** No body at all (204, 201 with description only, redirects). */
  | { kind: 'none'; describe: string }
  /** Anything goes (`type: file`: the raw bytes of a file, JSON or not). */
  | { kind: 'any'; describe: string };

/** Gitea's error body: `{"message", "url"}` (services/context/api.go APIError), 404 adding `errors`. */
export function errorSchema(status: number, variant: Variant): JsonSchema {
  const properties: JsonSchema = { message: { type: 'string' }, url: { type: 'string', pattern: 'api/swagger$' } };
  // Gitea's APIErrorNotFound adds the error strings it was given; a nil slice is null.
  if (status === 404) properties.errors = { type: ['array', 'null'], items: { type: 'string' } };
  return { type: 'object', required: ['message', 'url'], properties, additionalProperties: variant !== 'response-strict' };
}

function headersAsBody(headers: Record<string, SwaggerSchema>, variant: Variant): JsonSchema {
  return convertSchema({ type: 'object', required: Object.keys(headers).sort(), properties: headers }, variant);
}

/**
 * What `operation` promises for `status`, or undefined when it declares no such response.
 * `crossCutting` statuses (see validator.ts) fall back to Gitea's error body.
 */
export function expectationFor(operation: ContractOperation, status: number, variant: Variant, crossCutting: readonly number[]): Expectation | undefined {
  const declared: SwaggerResponse | undefined = operation.responses[String(status)] ?? operation.responses.default;
  if (!declared) {
    return crossCutting.includes(status) ? { kind: 'json', schema: errorSchema(status, variant), bodyOptional: false, describe: `Gitea error body (${status} applies to every operation)` } : undefined;
  }
  const refName = declared.$ref?.replace(/^#\/responses\//, '');
  const response = refName ? contractDocument().responses[refName] : declared;
  if (!response) return undefined;
  const describe = refName ? `#/responses/${refName}` : `inline response "${declared.description ?? status}"`;
  if (response.schema) {
    const type = response.schema.type;
    if (type === 'file') return { kind: 'any', describe };
    // `type: string` bodies (diffs, rendered markdown, armoured keys) travel as text, not JSON.
    return { kind: 'json', schema: convertSchema(response.schema, variant), bodyOptional: type === 'string', describe };
  }
  if (response.headers) {
    const own = headersAsBody(response.headers, variant);
    if (status < 400) return { kind: 'json', schema: own, bodyOptional: false, describe };
    const plain = Object.keys(response.headers).sort().join() === 'message,url';
    // An error declared with its own shape (invalidTopicsError) may still be answered by the
    // binding layer's plain 422, so both are accepted.
    return { kind: 'json', schema: plain ? errorSchema(status, variant) : { anyOf: [own, errorSchema(status, variant)] }, bodyOptional: false, describe };
  }
  if (status >= 400) {
    // `notFound` / `conflict` are always answered with the error body; a description-only
    // inline error ("user is not a member") is Gitea's bare `ctx.Status(404)`: may be empty.
    return { kind: 'json', schema: errorSchema(status, variant), bodyOptional: !refName, describe };
  }
  return { kind: 'none', describe };
}
