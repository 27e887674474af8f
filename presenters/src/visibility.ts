// Gitea's visibility names in requests and replies (the table itself is @anvil/proto's).
import { invalid } from '@anvil/kit';
import { isVisibilityName, visibilityEnum, visibilityName as nameOf, type identity, type VisibilityName } from '@anvil/proto';

export type { VisibilityName } from '@anvil/proto';

/** The Gitea name of a proto visibility; anything unset reads as public. */
export function visibilityName(v: identity.User['visibility']): VisibilityName {
  return nameOf(v) ?? 'public';
}

/** The proto visibility a request names; undefined when absent, 422 naming the field when unknown. */
export function visibilityOf(name: unknown): identity.Visibility | undefined {
  if (name === undefined || name === '') return undefined;
  if (!isVisibilityName(String(name))) throw invalid('[visibility]: visibility must be one of public, limited, private');
  return visibilityEnum(String(name) as VisibilityName);
}
