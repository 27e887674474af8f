// The one check of an outbound target: every address the host resolves to must be on the
// allow list. The HTTP dispatcher (guard.ts) connects to the address it checked; callers whose
// connection another program makes (git, for migrations and mirrors) pin that program to the
// checked address, so a second lookup (DNS rebinding between the check and the connection)
// cannot send it elsewhere.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { HostList } from './host-list.js';

/** The connection was not made: the target is not on the allow list. */
export class OutboundRefused extends Error {
  readonly code = 'ANVIL_OUTBOUND_REFUSED';
  constructor(readonly host: string, readonly address: string, setting: string) {
    super(`${host} (${address}) is not allowed by ${setting}`);
    this.name = 'OutboundRefused';
  }
}

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

/**
 * The addresses `host` resolves to when every one of them is allowed by `allowed`, first
 * one first; OutboundRefused otherwise (also for a name that resolves to nothing).
 */
export async function resolveAllowed(host: string, allowed: HostList, setting: string): Promise<CheckedAddress[]> {
  const bare = host.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  const addresses: CheckedAddress[] = family
    ? [{ address: bare, family: family as 4 | 6 }]
    : (await lookup(bare, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  if (!addresses.length) throw new OutboundRefused(bare, 'no address', setting);
  const refused = addresses.find((a) => !allowed.allows(bare, a.address));
  if (refused) throw new OutboundRefused(bare, refused.address, setting);
  return addresses;
}
