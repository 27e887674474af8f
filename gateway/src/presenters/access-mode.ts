// Gitea's access modes, weakest first: the one ladder the gateway compares a resolved
// permission on (the repository service computes the mode; the gateway only reads it).
export const ACCESS_MODES = ['none', 'read', 'write', 'admin', 'owner'] as const;
export type AccessMode = (typeof ACCESS_MODES)[number];

/** Whether `mode` (as the repository service sent it) grants at least `wanted`. */
export function atLeast(mode: string, wanted: AccessMode): boolean {
  return ACCESS_MODES.indexOf(mode as AccessMode) >= ACCESS_MODES.indexOf(wanted);
}

/** Gitea's Permission JSON for a mode. */
export function presentPermission(mode: string) {
  return { admin: atLeast(mode, 'admin'), push: atLeast(mode, 'write'), pull: atLeast(mode, 'read') };
}
