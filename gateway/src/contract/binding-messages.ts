// Phrases a request-body validation failure the way Gitea's API answers it (422
// APIValidationError). Gitea 1.2x routers/api/v1/api.go `bind()` does
//     ctx.APIError(422, fmt.Sprintf("%s: %s", errs[0].FieldNames, errs[0].Error()))
// over the errors of modules/web/binding (formerly gitea.com/go-chi/binding): a rule failure
// reads `[Username]: Required`, `[Email]: Email`, `[Visibility]: In`; a JSON decoding error
// has no field (`[]: json: cannot unmarshal number into Go struct field
// CreateUserOption.email of type string`). Only the FIRST error is reported, and decoding
// errors come before rule errors. Anvil keeps that shape and order but names the field by
// its JSON name (what the client sent) and spells the rule out, e.g.
//     [username]: Required
//     [email]: Email is not a valid email address
//     [email]: json: cannot unmarshal number into Go struct field CreateUserOption.email of type string
import type { ErrorObject } from 'ajv';

/** `/files/0/operation` + `path` → `files[0].path`: the field as the client wrote it. */
export function fieldName(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  return parts.reduce((name, part) => (/^\d+$/.test(part) ? `${name}[${part}]` : name ? `${name}.${part}` : part), '');
}

function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'bool';
  // Go names the literal when a number does not fit the integer it is decoded into.
  if (typeof value === 'number') return Number.isInteger(value) ? 'number' : `number ${value}`;
  return typeof value;
}

/** Go's name for the type a schema decodes into. */
export function goType(schema: Record<string, unknown> | undefined): string {
  if (!schema) return 'interface {}';
  const ref = schema.$ref ?? (schema.allOf as Array<Record<string, unknown>> | undefined)?.[0]?.$ref;
  if (typeof ref === 'string') return `structs.${ref.split('/').pop()}`;
  switch (schema.type) {
    case 'integer':
      return typeof schema.format === 'string' && /^u?int\d+$/.test(schema.format) ? schema.format : 'int';
    case 'number':
      return schema.format === 'float' ? 'float32' : 'float64';
    case 'boolean':
      return 'bool';
    case 'string':
      return schema.format === 'date-time' ? 'time.Time' : 'string';
    case 'array':
      return `[]${goType(schema.items as Record<string, unknown> | undefined)}`;
    case 'object':
      return schema.properties ? 'struct' : `map[string]${goType(schema.additionalProperties as Record<string, unknown> | undefined)}`;
    default:
      return 'interface {}';
  }
}

const RANK: Record<string, number> = { type: 0, required: 1, goRequired: 1 };

/** The one message Gitea would give for these ajv errors (request variant, verbose mode). */
export function bindingMessage(errors: readonly ErrorObject[], bodyType: string): string {
  const relevant = errors.filter((e) => !['allOf', 'anyOf', 'oneOf', 'if', 'not'].includes(e.keyword));
  const first = [...relevant].sort((a, b) => (RANK[a.keyword] ?? 2) - (RANK[b.keyword] ?? 2))[0] ?? errors[0];
  if (!first) return '[]: invalid request body';
  const field = fieldName(first.instancePath);
  switch (first.keyword) {
    case 'type': {
      const target = goType(first.parentSchema as Record<string, unknown> | undefined);
      if (!field) return `[]: json: cannot unmarshal ${jsonKind(first.data)} into Go value of type structs.${bodyType}`;
      return `[${field}]: json: cannot unmarshal ${jsonKind(first.data)} into Go struct field ${bodyType}.${field.replace(/\[\d+\]/g, '')} of type ${target}`;
    }
    case 'required':
    case 'goRequired':
      return `[${fieldName(first.instancePath, String(first.params.missingProperty))}]: Required`;
    case 'format':
      return `[${field}]: ${formatMessage(String(first.params.format), first.data)}`;
    case 'enum':
      return `[${field}]: In must be one of ${(first.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'maxLength':
      return `[${field}]: MaxSize must be at most ${String(first.params.limit)} characters`;
    case 'uniqueItems':
      return `[${field}]: must not contain duplicate items`;
    default:
      return `[${field}]: ${first.message ?? first.keyword}`;
  }
}

function formatMessage(format: string, value: unknown): string {
  switch (format) {
    case 'email':
      return 'Email is not a valid email address';
    case 'date-time':
      return `parsing time ${JSON.stringify(value)}: not an RFC 3339 date-time (2006-01-02T15:04:05Z07:00)`;
    case 'git-ref-name':
      return 'GitRefName is not a valid git reference name';
    case 'date':
      return `parsing time ${JSON.stringify(value)}: not a date (2006-01-02)`;
    default:
      return `json: cannot unmarshal number ${String(value)} into Go value of type ${format}`;
  }
}
