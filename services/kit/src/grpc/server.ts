// Boots a gRPC server for one service: its handlers, the standard health service, signed
// caller metadata checked on every call, and DomainError → gRPC status in one place.
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation, type ServingStatusMap } from 'grpc-health-check';
import type { Logger } from 'pino';
import { DomainError, grpcStatusOf } from '../errors.js';
import { readCaller, type Caller } from './caller.js';
import { readOrgScope, readRepositoryScope, type OrgScope, type RepositoryScope } from './repository-scope.js';
import { MAX_MESSAGE_BYTES } from './client.js';

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
}

export interface RunningGrpcServer {
  port: number;
  health: HealthImplementation;
  /** Stops taking calls and waits for in-flight ones (SIGTERM), forcing after `graceMs`. */
  shutdown(graceMs?: number): Promise<void>;
}

function errorToStatus(err: unknown, log: Logger, method: string): Partial<grpc.StatusObject> {
  if (err instanceof DomainError) {
    const metadata = new grpc.Metadata();
    metadata.set('x-anvil-reason', err.reason);
    return { code: grpcStatusOf(err.kind), details: err.message, metadata };
  }
  log.error({ err, method }, 'unexpected error in gRPC handler');
  return { code: grpc.status.INTERNAL, details: 'internal error' };
}

function wrapUnary(method: string, fn: (req: unknown, ctx: CallContext) => Promise<unknown>, secret: string, log: Logger): grpc.handleUnaryCall<unknown, unknown> {
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
    fn(call.request, { caller, repository, org, log, signal: abandoned.signal }).then(
      (reply) => {
        answered = true;
        callback(null, reply);
      },
      (err: unknown) => {
        answered = true;
        callback(errorToStatus(err, log, method));
      },
    );
  };
}

export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const server = new grpc.Server({
    'grpc.enable_channelz': 0,
    'grpc.keepalive_permit_without_calls': 1,
    'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  });
  const statusMap: ServingStatusMap = { '': 'SERVING' };
  for (const { name, definition, implementation } of options.services) {
    const handlers: grpc.UntypedServiceImplementation = {};
    for (const [method, fn] of Object.entries(implementation)) {
      if (!definition[method]) throw new Error(`${name} has no method ${method}`);
      handlers[method] = wrapUnary(`${name}/${method}`, (fn as Function).bind(implementation), options.secret, options.log);
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
