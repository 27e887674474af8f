// [migrations] applied to a remote before git connects to it (Gitea's IsMigrateURLAllowed):
// with ALLOWED_DOMAINS set only those hosts, else anything but BLOCKED_DOMAINS; and unless
// ALLOW_LOCALNETWORKS, every address the host resolves to must be external (no loopback,
// private, link-local or unspecified address such as 0.0.0.0). The host lists and the
// resolution are the kit's outbound guard, the one webhooks use.
import { hostList, OutboundRefused, resolveAllowed, type HostList } from '@anvil/kit';
import type { RemoteAddress } from '../domain/remote-address.js';

export interface MigrationHostPolicy {
  allowLocalNetworks: boolean;
  allowedDomains: readonly string[];
  blockedDomains: readonly string[];
}

/** The address git is pinned to (mirror-git.ts). */
export interface CheckedRemote {
  address: string;
}

const SETTING = '[migrations] ALLOWED_DOMAINS/ALLOW_LOCALNETWORKS/BLOCKED_DOMAINS';

export class RemoteGuard {
  private readonly allowed?: HostList;
  private readonly blocked: HostList;
  private readonly networks: HostList;

  constructor(policy: MigrationHostPolicy) {
    this.allowed = policy.allowedDomains.length ? hostList(policy.allowedDomains) : undefined;
    this.blocked = hostList(policy.blockedDomains);
    this.networks = hostList(policy.allowLocalNetworks ? ['*'] : ['external']);
  }

  /** The checked address to pin git to; OutboundRefused when the remote is not allowed. */
  async check(address: RemoteAddress): Promise<CheckedRemote> {
    if (address.kind === 'local') return { address: '' };
    const { host } = address;
    const byName: HostList = {
      entries: [],
      allows: (name, ip) => (this.allowed ? this.allowed.allows(name, ip) : !this.blocked.allows(name, ip)) && this.networks.allows(name, ip),
    };
    const [first] = await resolveAllowed(host, byName, SETTING).catch((err: unknown) => {
      if (err instanceof OutboundRefused) throw err;
      // A name that does not resolve cannot be migrated from either.
      throw new OutboundRefused(host, 'unresolvable', SETTING);
    });
    return { address: first.address };
  }
}
