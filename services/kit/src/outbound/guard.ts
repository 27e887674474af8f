// The one way Anvil makes outbound HTTP requests to addresses users choose (webhooks, later
// migrations): an undici dispatcher that checks every connection against a host allow list.
//
// request-filtering-agent (the maintained guard for Node) is an http.Agent, which undici
// does not use; so the check sits in undici's connector instead. Host names are resolved by
// our own `lookup` (resolve.ts, the one check), which refuses the connection unless every
// address the name resolved to is allowed, and the socket then connects to exactly the
// address that was checked: no second resolution, so no DNS-rebinding gap. IP literals, which Node connects to without a
// lookup, are checked before connecting. Redirects go through the same dispatcher, so each
// hop's connection is checked the same way.
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector, interceptors, type Dispatcher } from 'undici';
import type { HostList } from './host-list.js';
import { resolveAllowed, type CheckedAddress } from './resolve.js';

export interface OutboundOptions {
  allowed: HostList;
  /** Named in refusals, e.g. `[webhook] ALLOWED_HOST_LIST`. */
  setting: string;
  /** Connect timeout. */
  connectTimeoutMs: number;
  skipTlsVerify?: boolean;
  /** Redirects followed (each hop checked); 0 follows none. */
  maxRedirections?: number;
  /** Connections per origin (the per-host concurrency limit of callers that queue on it). */
  connectionsPerOrigin?: number;
}

function guardedLookup(options: OutboundOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    resolveAllowed(hostname, options.allowed, options.setting).then((addresses) => {
      if (lookupOptions.all) return (callback as unknown as (e: null, a: CheckedAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    }, (err: NodeJS.ErrnoException) => callback(err, '', 0));
  };
}

/** An undici dispatcher that only connects where `options.allowed` says. */
export function outboundDispatcher(options: OutboundOptions): Dispatcher {
  const connect = buildConnector({
    timeout: options.connectTimeoutMs,
    lookup: guardedLookup(options),
    rejectUnauthorized: !options.skipTlsVerify,
  } as buildConnector.BuildOptions);
  const agent = new Agent({
    connections: options.connectionsPerOrigin ?? null,
    connect(connectOptions, callback) {
      // IP literals are connected to without a lookup: checked here, the same way.
      if (!isIP(connectOptions.hostname.replace(/^\[|\]$/g, ''))) return connect(connectOptions, callback);
      resolveAllowed(connectOptions.hostname, options.allowed, options.setting)
        .then(() => connect(connectOptions, callback), (err: Error) => callback(err, null));
    },
  });
  const redirections = options.maxRedirections ?? 0;
  return redirections > 0 ? agent.compose(interceptors.redirect({ maxRedirections: redirections })) : agent;
}
