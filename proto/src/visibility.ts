// Gitea's visibility names and identity.proto's Visibility enum, in one table read both ways.
import type { identity } from './types.js';

export type VisibilityName = 'public' | 'limited' | 'private';

/** Indexed by the enum's number. */
const NAMES: readonly VisibilityName[] = ['public', 'limited', 'private'];
const ENUM: Record<VisibilityName, identity.Visibility> = {
  public: 'VISIBILITY_PUBLIC',
  limited: 'VISIBILITY_LIMITED',
  private: 'VISIBILITY_PRIVATE',
};

/** The Gitea name of a visibility as decoded (enum name) or as encoded (number); undefined when unknown. */
export function visibilityName(value: identity.Visibility | number | null | undefined): VisibilityName | undefined {
  if (typeof value === 'number') return NAMES[value];
  return NAMES.find((name) => ENUM[name] === value);
}

/** The enum's name for a Gitea name (gRPC replies). */
export function visibilityEnum(name: VisibilityName): identity.Visibility {
  return ENUM[name];
}

/** The enum's number for a Gitea name: event payloads go through protobufjs' verify, which takes numbers only. */
export function visibilityNumber(name: VisibilityName): 0 | 1 | 2 {
  return NAMES.indexOf(name) as 0 | 1 | 2;
}

/** Whether a string is one of Gitea's visibility names. */
export function isVisibilityName(value: string): value is VisibilityName {
  return (NAMES as readonly string[]).includes(value);
}
