// How a client spreads its calls over the replicas of a service, and which calls it may
// repeat. A grpc-js channel to a plain `host:port` sticks to the first address it reaches
// (pick_first), so behind a Kubernetes ClusterIP every call of a gateway pod lands on one
// pod. With `round_robin` the channel keeps a connection to every address the resolver
// returns and picks one per call:
//   - `dns:///identity-headless:50051` — a headless Service: DNS returns every ready pod;
//     grpc-js re-resolves when a connection drops, and the servers end each connection
//     after a while (server.ts, max_connection_age) so new pods are found as they come;
//   - `127.0.0.1:50051,127.0.0.1:50151` — a fixed list on one machine (becomes an
//     `ipv4:` / `ipv6:` target, which grpc-js resolves to all of its addresses).
import type * as grpc from '@grpc/grpc-js';

/** The grpc-js target of an address as configured (ANVIL_<SERVICE>_ADDR). */
export function channelTarget(address: string): string {
  if (!address.includes(',')) return address;
  const parts = address.split(',').map((part) => part.trim()).filter(Boolean);
  const ipv6 = parts.every((part) => part.startsWith('['));
  if (!ipv6 && parts.some((part) => part.startsWith('['))) throw new Error(`cannot mix IPv4 and IPv6 in one address list: ${address}`);
  return `${ipv6 ? 'ipv6' : 'ipv4'}:${parts.join(',')}`;
}

/**
 * The address a service binds when its configured address is a list or a DNS target: the
 * first entry, with `dns:///` dropped. A replica beside others sets ANVIL_GRPC_LISTEN.
 */
export function listenAddress(address: string): string {
  return address.replace(/^dns:\/\/[^/]*\//, '').split(',')[0].trim();
}

/**
 * Reads that change nothing, so a call that failed with UNAVAILABLE (its pod went away, a
 * connection broke) may be sent again to another replica. Judged by the RPC's verb: every
 * RPC named Get…, List…, Search…, Count…, Compare…, Resolve… or Check… only reads. A write
 * is never repeated by this policy; grpc-js still re-sends any call that never reached a
 * server (transparent retry), which is safe for writes too.
 */
export const IDEMPOTENT_VERBS = ['Get', 'List', 'Search', 'Count', 'Compare', 'Resolve', 'Check'] as const;

export function isIdempotent(method: string): boolean {
  return IDEMPOTENT_VERBS.some((verb) => method.startsWith(verb) && /^[A-Z]?$/.test(method.charAt(verb.length)));
}

/** The grpc-js service config of a client: round_robin, and retries for the idempotent reads. */
export function serviceConfigFor(definition: grpc.ServiceDefinition): object {
  const reads = Object.values(definition)
    .map((method) => method.path.slice(1).split('/'))
    .filter(([, method]) => isIdempotent(method))
    .map(([service, method]) => ({ service, method }));
  return {
    loadBalancingConfig: [{ round_robin: {} }],
    methodConfig: reads.length
      ? [
          {
            name: reads,
            retryPolicy: {
              maxAttempts: 3,
              initialBackoff: '0.05s',
              maxBackoff: '0.5s',
              backoffMultiplier: 2,
              retryableStatusCodes: ['UNAVAILABLE'],
            },
          },
        ]
      : [],
  };
}
