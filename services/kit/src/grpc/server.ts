// Boots a gRPC server for one service: its handlers, the standard health service, signed
// caller metadata checked on every call, and DomainError → gRPC status in one place.
import { AsyncLocalStorage } from 'node:async_hooks';
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation, type ServingStatusMap } from 'grpc-health-check';
import type { Logger } from 'pino';
import { DomainError, grpcStatusOf } from '../errors.js';
import { readCaller, type Caller } from './caller.js';
import { readOrgScope, readRepositoryScope, type OrgScope, type RepositoryScope } from './repository-scope.js';
import { MAX_MESSAGE_BYTES } from './client.js';
import { context as otelContext } from '@opentelemetry/api';
import { startServerSpan } from '../telemetry/grpc.js';
import { recordRpcServed } from '../telemetry/metrics.js';

export interface CallContext {
  caller: Caller;
  /** The repository the gateway resolved for this caller, when it sent one (signed). */
  repository?: RepositoryScope;
  /** The organization the gateway resolved for this caller, when it sent one (signed). */
  org?: OrgScope;
  log: Logger;
  /**
   * Aborted once the caller stops waiting: it went away or its deadline passed, and
   * grpc-js has already answered it. Work queued behind others checks it before starting,
   * so nothing is done on behalf of a caller that was told it failed.
   */
  signal: AbortSignal;
}

/**
 * Turns generated handler types into promise-returning functions taking the caller. The
 * generated `...Handlers` extend grpc-js's UntypedServiceImplementation, whose string index
 * signature is dropped here (`string extends K`) so only the .proto's methods remain.
 */
export type ServiceImplementation<H> = {
  [K in keyof H as string extends K ? never : K extends string ? K : never]: H[K] extends grpc.handleUnaryCall<infer Req, infer Res>
    ? (request: Req, context: CallContext) => Promise<Res>
    : never;
};

export interface GrpcServerOptions {
  /** host:port to bind; port 0 picks a free one (tests). */
  listen: string;
  secret: string;
  log: Logger;
  services: Array<{ name: string; definition: grpc.ServiceDefinition; implementation: object }>;
  /**
   * The answer a caller gets for a failure the service recognizes though its code did not
   * throw a DomainError (e.g. git reporting that a repository renamed a moment ago is not
   * there): undefined leaves it an internal error.
   */
  domainErrorOf?(err: unknown): DomainError | undefined;
}

export interface RunningGrpcServer {
  port: number;
  health: HealthImplementation;
  /** Stops taking calls and waits for in-flight ones (SIGTERM), forcing after `graceMs`. */
  shutdown(graceMs?: number): Promise<void>;
}

/** The most characters of an error message a status carries (see boundedDetails). */
export const MAX_STATUS_DETAILS = 500;

/**
 * An error message as a gRPC status may carry it. Messages often quote the caller's input
 * (`tag name is invalid: <name>`), and the status travels percent-encoded in an HTTP/2
 * trailer: a 90 KB name made a trailer bigger than the client accepts, so the call hung
 * until its deadline and the shared connection was reset under every other call. Cut to
 * MAX_STATUS_DETAILS characters (at most ~6 KB once encoded).
 */
export function boundedDetails(message: string): string {
  const characters = [...message.slice(0, MAX_STATUS_DETAILS * 2)];
  return characters.length <= MAX_STATUS_DETAILS ? message : `${characters.slice(0, MAX_STATUS_DETAILS - 1).join('')}…`;
}

// PostgreSQL out of connections (SQLSTATE 53300; Prisma's P2037, or P2010 around a raw
// query) or unreachable (P1001, P1017), or the service's own pool busy for longer than a
// transaction may wait for a connection (P2028 "Unable to start a transaction in the given
// time", P2024; nothing of the request was done): a passing condition, not the request's
// fault. A burst of writes beyond what the machine keeps up with answered 500s before.
const DATABASE_UNAVAILABLE = /too many clients|too many database connections|can't reach database server|server has closed the connection|connection terminated|unable to start a transaction in the given time/i;

function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (['P2037', 'P1001', 'P1017', 'P2024', 'P2028', '53300'].includes(e?.code as string)) return true;
  return typeof e?.message === 'string' && DATABASE_UNAVAILABLE.test(e.message);
}

/** A status for what a handler threw: a DomainError's own, `unavailable` for a database gone, else `internal`. */
function errorToStatus(thrown: unknown, log: Logger, method: string, domainErrorOf?: GrpcServerOptions['domainErrorOf']): Partial<grpc.StatusObject> {
  const err = thrown instanceof DomainError ? thrown : (domainErrorOf?.(thrown) ?? thrown);
  if (err instanceof DomainError) {
    const metadata = new grpc.Metadata();
    metadata.set('x-anvil-reason', err.reason.slice(0, 200));
    return { code: grpcStatusOf(err.kind), details: boundedDetails(err.message), metadata };
  }
  if (isDatabaseUnavailable(err)) {
    // `unavailable` is the gateway's 503: the client may retry.
    log.warn({ err, method }, 'database unavailable');
    return { code: grpc.status.UNAVAILABLE, details: 'database temporarily unavailable' };
  }
  log.error({ err, method }, 'unexpected error in gRPC handler');
  return { code: grpc.status.INTERNAL, details: 'internal error' };
}

// The gRPC call being handled, for code far from the handler: the repository service's git
// runner shares its process slots per caller and kills git when the caller stopped waiting.
const callContext = new AsyncLocalStorage<{ caller: Caller; signal: AbortSignal }>();

/** The caller of the gRPC call this code runs for; undefined outside a call (consumers, start-up). */
export function currentCaller(): Caller | undefined {
  return callContext.getStore()?.caller;
}

/** Aborted when the caller of the current gRPC call stopped waiting (its deadline passed). */
export function currentCallSignal(): AbortSignal | undefined {
  return callContext.getStore()?.signal;
}

/**
 * Runs `work` outside the current call: nothing it starts is abandoned when the caller
 * stops waiting (a job that must finish or undo itself whole, such as a migration's clone).
 */
export function detachedFromCall<T>(work: () => Promise<T>): Promise<T> {
  return callContext.exit(work);
}

function wrapUnary(method: string, fn: (req: unknown, ctx: CallContext) => Promise<unknown>, options: GrpcServerOptions): grpc.handleUnaryCall<unknown, unknown> {
  const { secret, log } = options;
  return (call, callback) => {
    const caller = readCaller(call.metadata, secret);
    if (!caller) {
      callback({ code: grpc.status.UNAUTHENTICATED, details: 'missing or forged caller metadata' });
      return;
    }
    // grpc-js also reports 'cancelled' when the stream closes after the answer; only a
    // cancellation while the handler still runs means the caller stopped waiting.
    const abandoned = new AbortController();
    let answered = false;
    call.once('cancelled', () => answered || abandoned.abort());
    const repository = readRepositoryScope(call.metadata, caller, secret);
    const org = readOrgScope(call.metadata, caller, secret);
    const trace = startServerSpan(method, call.metadata);
    const started = performance.now();
    otelContext.with(trace.context, () =>
      callContext.run({ caller, signal: abandoned.signal }, () => fn(call.request, { caller, repository, org, log, signal: abandoned.signal })),
    ).then(
      (reply) => {
        answered = true;
        trace.span.end();
        recordRpcServed(method, grpc.status.OK, (performance.now() - started) / 1000);
        callback(null, reply);
      },
      (err: unknown) => {
        answered = true;
        const status = errorToStatus(err, log, method, options.domainErrorOf);
        trace.span.setAttribute('rpc.grpc.status_code', status.code ?? grpc.status.UNKNOWN);
        trace.span.end();
        recordRpcServed(method, status.code ?? grpc.status.UNKNOWN, (performance.now() - started) / 1000);
        callback(status);
      },
    );
  };
}

export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const server = new grpc.Server({
    'grpc.enable_channelz': 0,
    'grpc.keepalive_permit_without_calls': 1,
    // Clients balance over the addresses they resolved (balancing.ts); ending each
    // connection after a while (GOAWAY, in-flight calls finish within the grace) makes them
    // reconnect and resolve again, so replicas added since are found and used.
    'grpc.max_connection_age_ms': 5 * 60_000,
    'grpc.max_connection_age_grace_ms': 30_000,
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  });
  const statusMap: ServingStatusMap = { '': 'SERVING' };
  for (const { name, definition, implementation } of options.services) {
    const handlers: grpc.UntypedServiceImplementation = {};
    for (const [method, fn] of Object.entries(implementation)) {
      if (!definition[method]) throw new Error(`${name} has no method ${method}`);
      handlers[method] = wrapUnary(`${name}/${method}`, (fn as Function).bind(implementation), options);
    }
    // grpc-js refuses a definition without methods; a service whose domain is still empty
    // (DESIGN.md §2) is then only a name the health check answers SERVING for.
    if (Object.keys(definition).length > 0) server.addService(definition, handlers);
    statusMap[name] = 'SERVING';
  }
  const health = new HealthImplementation(statusMap);
  health.addToServer(server);

  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(options.listen, grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound))),
  );
  options.log.info({ listen: options.listen, port }, 'gRPC server listening');

  return {
    port,
    health,
    shutdown(graceMs = 10_000) {
      for (const name of Object.keys(statusMap)) health.setStatus(name, 'NOT_SERVING');
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, graceMs);
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
  };
}
