// A resolved permission as Gitea's JSON shows it (the ladder itself is the kit's).
import { atLeast } from '@anvil/kit';

export { atLeast, type AccessMode } from '@anvil/kit';

/** Gitea's Permission JSON for a mode. */
export function presentPermission(mode: string) {
  return { admin: atLeast(mode, 'admin'), push: atLeast(mode, 'write'), pull: atLeast(mode, 'read') };
}
