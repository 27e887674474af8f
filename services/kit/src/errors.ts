// One vocabulary of failures shared by every service and the gateway. Domain code throws
// DomainError with a machine reason; grpc/server.ts turns it into a gRPC status and
// grpc/client.ts turns the status back into a DomainError, so the gateway's error mapper
// (gateway/src/http/errors.ts) sees the same reason the domain raised.
import { status as GrpcStatus } from '@grpc/grpc-js';

export type ErrorKind =
  | 'invalid' // the request cannot be right as written (Gitea answers 422)
  | 'bad_request' // well-formed but refused by a rule Gitea answers 400 for
  | 'not_found'
  | 'already_exists' // a name or key is taken (409 unless the route says otherwise)
  | 'conflict' // a concurrent change won (push out of date, stale sha)
  | 'forbidden'
  | 'unauthenticated'
  | 'too_large'
  | 'unavailable';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Stable machine reason, e.g. `token_name_taken`; routes may map it to Gitea's status. */
    readonly reason: string = kind,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (message: string, reason = 'not_found') => new DomainError('not_found', message, reason);
export const invalid = (message: string, reason = 'invalid') => new DomainError('invalid', message, reason);
export const alreadyExists = (message: string, reason = 'already_exists') => new DomainError('already_exists', message, reason);
export const forbidden = (message: string, reason = 'forbidden') => new DomainError('forbidden', message, reason);

const KIND_TO_STATUS: Record<ErrorKind, GrpcStatus> = {
  invalid: GrpcStatus.INVALID_ARGUMENT,
  bad_request: GrpcStatus.FAILED_PRECONDITION,
  not_found: GrpcStatus.NOT_FOUND,
  already_exists: GrpcStatus.ALREADY_EXISTS,
  conflict: GrpcStatus.ABORTED,
  forbidden: GrpcStatus.PERMISSION_DENIED,
  unauthenticated: GrpcStatus.UNAUTHENTICATED,
  too_large: GrpcStatus.RESOURCE_EXHAUSTED,
  unavailable: GrpcStatus.UNAVAILABLE,
};

const STATUS_TO_KIND = new Map<GrpcStatus, ErrorKind>(
  Object.entries(KIND_TO_STATUS).map(([kind, code]) => [code, kind as ErrorKind]),
);

export function grpcStatusOf(kind: ErrorKind): GrpcStatus {
  return KIND_TO_STATUS[kind];
}

/**
 * The kind a gRPC status stands for; undefined for INTERNAL, UNKNOWN and friends (bugs).
 * A deadline that passed means the service could not answer in time: unavailable.
 */
export function kindOfGrpcStatus(code: GrpcStatus): ErrorKind | undefined {
  if (code === GrpcStatus.DEADLINE_EXCEEDED) return 'unavailable';
  return STATUS_TO_KIND.get(code);
}
