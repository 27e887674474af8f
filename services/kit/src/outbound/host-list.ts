// Gitea's host allow lists (modules/hostmatcher), used for `[webhook] ALLOWED_HOST_LIST` and
// later `[migrations]`: each entry is a keyword (`external`, `private`, `loopback`, `*`), a
// CIDR (`10.0.0.0/8`, `fd00::/8`) or a host glob (`*.example.com`). A target passes when its
// host name matches a glob or the address it resolved to matches a keyword or CIDR. The
// address classes follow Go's net.IP as Gitea does, with one deliberate tightening: IPv6
// forms that embed an IPv4 address (6to4, Teredo, NAT64) are not `external`.
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The parsed address, IPv4-mapped IPv6 (`::ffff:127.0.0.1`) read as the IPv4 it carries. */
export function parseAddress(text: string): Address | undefined {
  const bare = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!ipaddr.isValid(bare)) return undefined;
  const parsed = ipaddr.parse(bare);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress() ? (parsed as ipaddr.IPv6).toIPv4Address() : parsed;
}

const isLoopback = (ip: Address) => ip.range() === 'loopback';
// Go's IsPrivate: 10/8, 172.16/12, 192.168/16 and fc00::/7.
const isPrivate = (ip: Address) => ip.range() === 'private' || ip.range() === 'uniqueLocal';
const NOT_EXTERNAL = new Set([
  'unspecified', 'broadcast', 'multicast', 'linkLocal', 'loopback', 'private', 'uniqueLocal', 'reserved',
  '6to4', 'teredo', 'rfc6052', 'rfc6145', 'ipv4Mapped',
]);
// Go's IsGlobalUnicast && !IsPrivate: 0.0.0.0 and :: (which reach this host) are never external.
const isExternal = (ip: Address) => !NOT_EXTERNAL.has(ip.range());

function globToRegExp(glob: string): RegExp {
  const body = glob.toLowerCase().split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*');
  return new RegExp(`^${body}$`);
}

export interface HostList {
  /** The entries as configured, for messages. */
  readonly entries: readonly string[];
  /** Whether `host` (the URL's host name) resolving to `address` may be reached. */
  allows(host: string, address: string): boolean;
}

export function hostList(entries: readonly string[]): HostList {
  const keywords = new Set<string>();
  const cidrs: Array<[Address, number]> = [];
  const globs: RegExp[] = [];
  for (const raw of entries) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (['external', 'private', 'loopback', '*'].includes(entry)) {
      keywords.add(entry);
    } else if (entry.includes('/')) {
      try {
        const [network, bits] = ipaddr.parseCIDR(entry);
        cidrs.push([network, bits]);
      } catch {
        throw new Error(`not a CIDR in a host list: ${raw}`);
      }
    } else {
      globs.push(globToRegExp(entry));
    }
  }
  return {
    entries,
    allows(host, address) {
      if (keywords.has('*')) return true;
      const name = host.replace(/^\[|\]$/g, '').toLowerCase();
      if (globs.some((glob) => glob.test(name))) return true;
      const ip = parseAddress(address);
      if (!ip) return false;
      if (keywords.has('external') && isExternal(ip)) return true;
      if (keywords.has('private') && isPrivate(ip)) return true;
      if (keywords.has('loopback') && isLoopback(ip)) return true;
      return cidrs.some(([network, bits]) => network.kind() === ip.kind() && ip.match(network, bits));
    },
  };
}
