// Gitea option structs → identity request messages (the inbound half of the presenter).
import { invalid } from '@anvil/kit';
import type { identity } from '@anvil/proto';

const VISIBILITY: Record<string, identity.Visibility> = {
  public: 'VISIBILITY_PUBLIC',
  limited: 'VISIBILITY_LIMITED',
  private: 'VISIBILITY_PRIVATE',
};

export function visibilityOf(name: unknown): identity.Visibility | undefined {
  if (name === undefined || name === '') return undefined;
  const value = VISIBILITY[String(name)];
  if (!value) throw invalid('[visibility]: visibility must be one of public, limited, private');
  return value;
}

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
