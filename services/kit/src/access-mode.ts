// Gitea's access modes, weakest first: the one ladder every service and the gateway compare
// a permission on (the repository service computes a caller's mode; the others only read it).
export const ACCESS_MODES = ['none', 'read', 'write', 'admin', 'owner'] as const;
export type AccessMode = (typeof ACCESS_MODES)[number];

/** Whether `mode` (as computed, or as another service sent it) grants at least `wanted`; an unknown mode grants nothing. */
export function atLeast(mode: string, wanted: AccessMode): boolean {
  return ACCESS_MODES.indexOf(mode as AccessMode) >= ACCESS_MODES.indexOf(wanted);
}

/** The mode a stored or received string names; anything else is 'none'. */
export function toAccessMode(value: string | null | undefined): AccessMode {
  return (ACCESS_MODES as readonly string[]).includes(value ?? '') ? (value as AccessMode) : 'none';
}
