// The repository (or organization) a call is about, as the gateway resolved it for its caller: the repository,
// its owner and the caller's permission there (repository's ResolveRepository reply). It
// travels beside the caller in gRPC metadata, signed with the same internal secret, so a
// service working inside one repository (collaboration) trusts it and never asks the
// repository service again (notes/performance.md rule 7). It is bound to the caller it was
// resolved for: a scope presented with another caller is refused.
import type { Metadata } from '@grpc/grpc-js';
import type { identity, repository } from '@anvil/proto';
import type { Caller } from './caller.js';
import { signPayload, verifyPayload } from './caller.js';

/** ResolveRepository's reply as the gateway holds it (decoded, so longs are numbers). */
export type RepositoryScope = repository.RepositoryAccess;

/**
 * The organization a call is about (`/orgs/{org}/...`), as identity answered the gateway's
 * GetOrg for the caller: the organization and whether the caller belongs to it and owns it.
 */
export type OrgScope = identity.OrgView;

const REPOSITORY_KEY = 'x-anvil-repository';
const ORG_KEY = 'x-anvil-org';

interface SignedScope {
  caller_id: number;
  scope: object;
}

// The gateway reuses one scope object per cached resolution, so a signature is made once
// per resolution; a service remembers what it verified, bounded.
const signedScopes = new WeakMap<object, { secret: string; callerId: number; value: string }>();
const verifiedScopes = new Map<string, { secret: string; signed: SignedScope }>();
const VERIFIED_SCOPES_MAX = 10_000;

function writeScope(metadata: Metadata, key: string, scope: object, caller: Caller, secret: string): void {
  let signed = signedScopes.get(scope);
  if (signed?.secret !== secret || signed.callerId !== caller.userId) {
    signed = { secret, callerId: caller.userId, value: signPayload({ caller_id: caller.userId, scope } satisfies SignedScope, secret) };
    signedScopes.set(scope, signed);
  }
  metadata.set(key, signed.value);
}

/**
 * The scope under `key` when it is signed and was resolved for `caller`; undefined when
 * there is none. A forged or mismatched one is also undefined: the service then answers as
 * though the gateway had resolved nothing.
 */
function readScope<T>(metadata: Metadata, key: string, caller: Caller, secret: string): T | undefined {
  const [value] = metadata.get(key);
  if (typeof value !== 'string') return undefined;
  let signed = verifiedScopes.get(value);
  if (signed?.secret !== secret) {
    const verified = verifyPayload<SignedScope>(value, secret);
    if (!verified) return undefined;
    if (verifiedScopes.size >= VERIFIED_SCOPES_MAX) verifiedScopes.clear();
    signed = { secret, signed: verified };
    verifiedScopes.set(value, signed);
  }
  return signed.signed.caller_id === caller.userId ? (signed.signed.scope as T) : undefined;
}

export const writeRepositoryScope = (metadata: Metadata, scope: RepositoryScope, caller: Caller, secret: string) => writeScope(metadata, REPOSITORY_KEY, scope, caller, secret);
export const readRepositoryScope = (metadata: Metadata, caller: Caller, secret: string) => readScope<RepositoryScope>(metadata, REPOSITORY_KEY, caller, secret);
export const writeOrgScope = (metadata: Metadata, scope: OrgScope, caller: Caller, secret: string) => writeScope(metadata, ORG_KEY, scope, caller, secret);
export const readOrgScope = (metadata: Metadata, caller: Caller, secret: string) => readScope<OrgScope>(metadata, ORG_KEY, caller, secret);
