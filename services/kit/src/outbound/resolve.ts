// Resolving a host the way the outbound guard does, for callers whose connection is made by
// another program (git, for migrations and mirrors): every address the name resolves to must
// pass, and the caller then pins that program to the checked address, so a second lookup
// (DNS rebinding between the check and the connection) cannot send it elsewhere.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { OutboundRefused } from './guard.js';
import type { HostList } from './host-list.js';

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
