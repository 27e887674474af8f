// The repository a call is about, as the gateway resolved it for its caller: the repository,
// its owner and the caller's permission there (repository's ResolveRepository reply). It
// travels beside the caller in gRPC metadata, signed with the same internal secret, so a
// service working inside one repository (collaboration) trusts it and never asks the
// repository service again (notes/performance.md rule 7). It is bound to the caller it was
// resolved for: a scope presented with another caller is refused.
import type { Metadata } from '@grpc/grpc-js';
import type { repository } from '@anvil/proto';
import type { Caller } from './caller.js';
import { signPayload, verifyPayload } from './caller.js';

/** ResolveRepository's reply as the gateway holds it (decoded, so longs are numbers). */
export type RepositoryScope = repository.RepositoryAccess;

const SCOPE_KEY = 'x-anvil-repository';

interface SignedScope {
  caller_id: number;
  scope: RepositoryScope;
}

// The gateway reuses one RepositoryScope object per cached resolution, so a signature is
// made once per resolution; a service remembers what it verified, bounded.
const signedScopes = new WeakMap<RepositoryScope, { secret: string; callerId: number; value: string }>();
const verifiedScopes = new Map<string, { secret: string; signed: SignedScope }>();
const VERIFIED_SCOPES_MAX = 10_000;

export function writeRepositoryScope(metadata: Metadata, scope: RepositoryScope, caller: Caller, secret: string): void {
  let signed = signedScopes.get(scope);
  if (signed?.secret !== secret || signed.callerId !== caller.userId) {
    signed = { secret, callerId: caller.userId, value: signPayload({ caller_id: caller.userId, scope } satisfies SignedScope, secret) };
    signedScopes.set(scope, signed);
  }
  metadata.set(SCOPE_KEY, signed.value);
}

/**
 * The repository scope in metadata when it is signed and was resolved for `caller`;
 * undefined when there is none. A forged or mismatched one is also undefined: the service
 * then answers as though the gateway had not resolved a repository at all.
 */
export function readRepositoryScope(metadata: Metadata, caller: Caller, secret: string): RepositoryScope | undefined {
  const [value] = metadata.get(SCOPE_KEY);
  if (typeof value !== 'string') return undefined;
  let signed = verifiedScopes.get(value);
  if (signed?.secret !== secret) {
    const verified = verifyPayload<SignedScope>(value, secret);
    if (!verified) return undefined;
    if (verifiedScopes.size >= VERIFIED_SCOPES_MAX) verifiedScopes.clear();
    signed = { secret, signed: verified };
    verifiedScopes.set(value, signed);
  }
  return signed.signed.caller_id === caller.userId ? signed.signed.scope : undefined;
}
