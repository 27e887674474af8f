// The users collaboration shows (posters, assignees), as identity describes them: its
// read model holds identity's User message for each, so a presenter needs no call per item.
import type { Caller } from '@anvil/kit';

/** identity.User as a plain object (snake_case, as the .proto): kept whole, shown by the gateway. */
export interface UserProfile {
  id: number;
  login: string;
  type?: string;
  [field: string]: unknown;
}

/**
 * What the read model learns of the signed caller when it has not yet heard of them from
 * identity (the event may still be on its way): enough to show them; the event, when it
 * arrives, replaces it.
 */
export function profileOfCaller(caller: Caller): UserProfile {
  return { id: caller.userId, login: caller.login, is_admin: caller.isAdmin, restricted: caller.restricted, active: true, type: 'user', visibility: 'VISIBILITY_PUBLIC' };
}
