// Promise-based clients over one long-lived channel per target service, with keepalive,
// channelz off and a deadline on every call (notes/performance.md rule 3). The channel
// balances per call (round_robin) across every address of the service, and retries the
// idempotent reads on UNAVAILABLE (see balancing.ts). The caller rides along in signed
// metadata; a failed call comes back as the DomainError the service raised.
import * as grpc from '@grpc/grpc-js';
import { DomainError, kindOfGrpcStatus } from '../errors.js';
import { startClientSpan } from '../telemetry/grpc.js';
import { recordRpcCalled } from '../telemetry/metrics.js';
import { channelTarget, serviceConfigFor } from './balancing.js';
import { writeCaller, type Caller } from './caller.js';
import { writeOrgScope, writeRepositoryScope, type OrgScope, type RepositoryScope } from './repository-scope.js';

export interface CallOptions {
  caller: Caller;
  /** The repository the call is about, as the gateway resolved it for the caller (signed). */
  repository?: RepositoryScope;
  /** The organization the call is about, as identity answered the gateway for the caller (signed). */
  org?: OrgScope;
  /** Milliseconds; defaults to the client's deadline. */
  deadlineMs?: number;
}

type LastOverloadUnary<F> = F extends (argument: infer Req, callback: grpc.requestCallback<infer Res>) => grpc.ClientUnaryCall
  ? (request: Req, options: CallOptions) => Promise<Res>
  : never;

/** `client.GetUser(req, { caller })` for every unary method of a generated client type. */
export type ServiceClient<C> = {
  // Generated clients carry each method twice (GetUser and getUser); keep the RPC names.
  [K in keyof C as K extends string ? (K extends Capitalize<K> ? K : never) : never]: LastOverloadUnary<C[K]>;
} & { close(): void; channel: grpc.Client };

type ClientConstructor = (new (address: string, credentials: grpc.ChannelCredentials, options?: grpc.ClientOptions) => grpc.Client) & {
  service?: grpc.ServiceDefinition;
};

/**
 * Largest message either side of a call carries. Above the gateway's JSON body limit (32 MiB
 * by default), so a body the gateway accepted is never refused between services.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export const CHANNEL_OPTIONS: grpc.ClientOptions = {
  'grpc.enable_channelz': 0,
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.keepalive_permit_without_calls': 1,
  // A restarted service is back within seconds (the supervisor restarts crashed ones, a
  // pod restarts): reconnect soon after, not after grpc-js's default backoff of up to
  // 120 s. Calls meanwhile fail at once with UNAVAILABLE, which the gateway answers as 503.
  'grpc.initial_reconnect_backoff_ms': 250,
  'grpc.max_reconnect_backoff_ms': 2_000,
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
  'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
};

/**
 * How grpc-js words a call that failed in transit: its HTTP/2 stream was reset, or the whole
 * connection ended under it. A service's own failure always arrives as a status in the
 * call's trailers, never so. The connection ends, for one, when the service's HTTP/2 layer
 * answers a flood of cancelled calls with GOAWAY INTERNAL_ERROR (nghttp2's limit on stream
 * resets): a gateway whose calls pass their deadline on an overloaded machine cancels many.
 */
const TRANSPORT_FAILURE = /^Received RST_STREAM with code \d+/;

export function errorFromStatus(err: grpc.ServiceError): Error {
  // grpc-js reports those as INTERNAL, but no handler failed: the caller may retry (the
  // gateway's 503), as for a passed deadline.
  if (err.code === grpc.status.INTERNAL && TRANSPORT_FAILURE.test(err.details)) return new DomainError('unavailable', err.details, 'unavailable');
  const kind = kindOfGrpcStatus(err.code);
  if (!kind) return err;
  const [reason] = err.metadata?.get('x-anvil-reason') ?? [];
  return new DomainError(kind, err.details, typeof reason === 'string' ? reason : kind);
}

export function createServiceClient<C>(
  Ctor: ClientConstructor,
  address: string,
  secret: string,
  defaults: { deadlineMs?: number } = {},
): ServiceClient<C> {
  const channel = new Ctor(channelTarget(address), grpc.credentials.createInsecure(), {
    ...CHANNEL_OPTIONS,
    'grpc.service_config': JSON.stringify(serviceConfigFor(Ctor.service ?? {})),
  });
  const defaultDeadline = defaults.deadlineMs ?? 10_000;
  const methods = new Map<string, Function>();
  return new Proxy({} as ServiceClient<C>, {
    get(_target, prop) {
      if (prop === 'close') return () => channel.close();
      if (prop === 'channel') return channel;
      if (typeof prop !== 'string') return undefined;
      let fn = methods.get(prop);
      if (!fn) {
        const rpc = (channel as unknown as Record<string, Function>)[prop];
        if (typeof rpc !== 'function') return undefined;
        fn = (request: unknown, options: CallOptions) =>
          new Promise((resolve, reject) => {
            const metadata = new grpc.Metadata();
            writeCaller(metadata, options.caller, secret);
            if (options.repository) writeRepositoryScope(metadata, options.repository, options.caller, secret);
            if (options.org) writeOrgScope(metadata, options.org, options.caller, secret);
            const span = startClientSpan(prop, metadata);
            const started = performance.now();
            const deadline = Date.now() + (options.deadlineMs ?? defaultDeadline);
            rpc.call(channel, request, metadata, { deadline }, (err: grpc.ServiceError | null, reply: unknown) => {
              if (err) span.setAttribute('rpc.grpc.status_code', err.code);
              span.end();
              recordRpcCalled(prop, err ? err.code : grpc.status.OK, (performance.now() - started) / 1000);
              if (err) reject(errorFromStatus(err));
              else resolve(reply);
            });
          });
        methods.set(prop, fn);
      }
      return fn;
    },
  });
}

/**
 * True while the client's channel failed to connect and waits out its reconnect backoff
 * (TRANSIENT_FAILURE): calls fail at once with UNAVAILABLE meanwhile, even if the service is
 * back already. grpc-js retries on its own, within `grpc.max_reconnect_backoff_ms`.
 */
export function isReconnecting(client: { channel: grpc.Client }): boolean {
  return client.channel.getChannel().getConnectivityState(false) === grpc.connectivityState.TRANSIENT_FAILURE;
}

/** Asks a service's standard health check; resolves to true when it is SERVING. */
export function checkHealth(address: string, service = '', deadlineMs = 2_000): Promise<boolean> {
  return new Promise((resolve) => {
    const client = new grpc.Client(channelTarget(address), grpc.credentials.createInsecure(), {
      ...CHANNEL_OPTIONS,
      'grpc.service_config': JSON.stringify(serviceConfigFor({})),
    });
    const done = (ok: boolean) => {
      client.close();
      resolve(ok);
    };
    client.makeUnaryRequest(
      '/grpc.health.v1.Health/Check',
      (arg: { service: string }) => encodeHealthRequest(arg.service),
      (buf: Buffer) => buf,
      { service },
      new grpc.Metadata(),
      { deadline: Date.now() + deadlineMs },
      (err, reply) => done(!err && !!reply && decodeHealthStatus(reply) === 1),
    );
  });
}

// The health messages are two tiny protobufs; encoding them by hand avoids loading the
// health .proto in every caller. HealthCheckRequest { string service = 1; }
function encodeHealthRequest(service: string): Buffer {
  const bytes = Buffer.from(service, 'utf8');
  if (bytes.length > 127) throw new Error('health check service name too long for a one-byte length');
  return bytes.length ? Buffer.concat([Buffer.from([0x0a, bytes.length]), bytes]) : Buffer.alloc(0);
}

// HealthCheckResponse { ServingStatus status = 1; } with SERVING = 1.
function decodeHealthStatus(buf: Buffer): number {
  return buf.length >= 2 && buf[0] === 0x08 ? buf[1] : 0;
}
