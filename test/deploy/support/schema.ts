// Validates an object against the Kubernetes OpenAPI schema of its apiVersion/kind, offline,
// with the validators the `kubernetes-models` packages ship (ajv, compiled ahead of time).
//
// Kubernetes' schemas leave additionalProperties open, so a misspelt field (`replicaz`,
// `readinesProbe`) would pass them, while the API server drops or rejects it. To catch
// those too, the object is wrapped in a Proxy that records every property the validator
// reads: the compiled validator reads each property its schema knows (and iterates the
// keys of maps), so a present field that was never read is one the schema does not know.
/* eslint-disable @typescript-eslint/no-explicit-any */

type ValidateFn = (this: unknown) => void;

const PACKAGES: Record<string, string> = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
};

async function modelValidate(apiVersion: string, kind: string): Promise<ValidateFn> {
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const pkg = PACKAGES[group] ?? 'kubernetes-models';
  let mod: Record<string, any>;
  try {
    mod = await import(`${pkg}/${apiVersion}/${kind}`);
  } catch (err) {
    throw new Error(`no schema for ${apiVersion} ${kind} in ${pkg}: ${(err as Error).message}`);
  }
  const Model = mod[kind];
  if (typeof Model?.prototype?.validate !== 'function') throw new Error(`${pkg}/${apiVersion}/${kind} exports no model`);
  return Model.prototype.validate;
}

function trackReads(root: unknown): { proxy: unknown; read: Set<string> } {
  const read = new Set<string>();
  const proxies = new WeakMap<object, unknown>();
  const wrap = (value: unknown, path: string): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const cached = proxies.get(value);
    if (cached) return cached;
    const proxy = new Proxy(value, {
      get(target, key, receiver) {
        const result = Reflect.get(target, key, receiver);
        if (typeof key !== 'string' || !Object.hasOwn(target, key)) return result;
        read.add(`${path}/${key}`);
        return wrap(result, `${path}/${key}`);
      },
    });
    proxies.set(value, proxy);
    return proxy;
  };
  return { proxy: wrap(root, ''), read };
}

function presentPaths(value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) => [`${path}/${key}`, ...presentPaths(child, `${path}/${key}`)]);
}

export interface SchemaResult {
  /** Schema violations: "path: message". */
  errors: string[];
  /** Fields present in the object that its schema does not define. */
  unknownFields: string[];
}

export async function validateAgainstSchema(object: { apiVersion: string; kind: string }): Promise<SchemaResult> {
  const validate = await modelValidate(object.apiVersion, object.kind);
  const { proxy, read } = trackReads(object);
  const errors: string[] = [];
  try {
    validate.call(proxy);
  } catch (err) {
    const details = (err as { errors?: Array<{ instancePath: string; message?: string; params?: unknown }> }).errors;
    if (!details) throw err;
    for (const e of details) errors.push(`${e.instancePath || '/'}: ${e.message ?? JSON.stringify(e.params)}`);
  }
  // A field is unknown if it was never read although its parent was (an unread parent is
  // already reported, or sits under a schema that accepts anything).
  const unknownFields = presentPaths(object).filter((path) => {
    const parent = path.slice(0, path.lastIndexOf('/'));
    return !read.has(path) && (parent === '' || read.has(parent));
  });
  return { errors, unknownFields };
}
