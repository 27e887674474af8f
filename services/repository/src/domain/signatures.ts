// Who a user is in the commits the service writes for them (contents API, merges): their
// full name (else login) and e-mail (else a no-reply address), as Gitea's doer signature.
import type { Caller } from '@anvil/kit';
import type { RepositoryStore } from './store.js';

export async function signatureOf(store: RepositoryStore, caller: Caller): Promise<{ name: string; email: string }> {
  const user = caller.userId > 0 ? await store.findOwnerById(caller.userId) : undefined;
  return { name: user?.fullName || caller.login || 'Anvil', email: user?.email || `${(caller.login || 'anvil').toLowerCase()}@noreply.anvil` };
}
