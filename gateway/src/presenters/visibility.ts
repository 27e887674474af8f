// Gitea's visibility names and the proto enum, in one table read both ways: outbound
// (presenters) and inbound (option structs → requests).
import { invalid } from '@anvil/kit';
import type { identity } from '@anvil/proto';

export type VisibilityName = 'public' | 'limited' | 'private';

const VISIBILITY: Record<VisibilityName, identity.Visibility> = {
  public: 'VISIBILITY_PUBLIC',
  limited: 'VISIBILITY_LIMITED',
  private: 'VISIBILITY_PRIVATE',
};

/** The Gitea name of a proto visibility; anything unset reads as public. */
export function visibilityName(v: identity.User['visibility']): VisibilityName {
  return (Object.keys(VISIBILITY) as VisibilityName[]).find((name) => VISIBILITY[name] === v) ?? 'public';
}

/** The proto visibility a request names; undefined when absent, 422 naming the field when unknown. */
export function visibilityOf(name: unknown): identity.Visibility | undefined {
  if (name === undefined || name === '') return undefined;
  const value = VISIBILITY[String(name) as VisibilityName];
  if (!value) throw invalid('[visibility]: visibility must be one of public, limited, private');
  return value;
}
