// Gitea option structs → identity request messages (the inbound half of the presenter).
export { visibilityOf } from '@anvil/presenters/visibility.js';

export function timestampOf(iso: unknown): { seconds: number; nanos: number } | undefined {
  if (typeof iso !== 'string' || !iso) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : { seconds: Math.floor(ms / 1000), nanos: 0 };
}

/** Copies the keys present in `body` (Gitea's pointer fields: absent means unchanged). */
export function presentFields<T extends object>(body: Record<string, unknown>, keys: readonly (keyof T & string)[]): Partial<T> {
  const out: Partial<T> = {};
  for (const key of keys) if (body[key] !== undefined && body[key] !== null) (out as Record<string, unknown>)[key] = body[key];
  return out;
}
