// What every repository gRPC adapter reads from a request the same way.
import { toAccessMode, type RepositoryScope } from '@anvil/kit';
import type { repository } from '@anvil/proto';
import { repositoryFor, type GatewayResolution, type RepositoryAccess } from '../domain/repositories.js';
import type { RepositoryStore } from '../domain/store.js';
import type { Caller } from '@anvil/kit';

/** The repository a request names (proto3 leaves an unset message null). */
export const refOf = (request: { ref?: repository.RepositoryRef | null }): repository.RepositoryRef => request.ref ?? { owner: '', name: '' };

/** A page request as offset and limit: page from 1, limit 1..1000 (30 when unset; the gateway clamps to the API settings). */
export function pageOf(page: { page?: number; limit?: number } | null | undefined): { offset: number; limit: number } {
  const limit = Math.min(Math.max(page?.limit || 30, 1), 1000);
  return { offset: (Math.max(page?.page || 1, 1) - 1) * limit, limit };
}

/**
 * The fields of an edit message that were set: proto3 `optional` fields arrive null when
 * unset, and proto-loader adds a `_field` oneof name beside each, which is no field.
 */
export function definedFields<T extends object>(message: T): { [K in keyof T]?: NonNullable<T[K]> } {
  return Object.fromEntries(Object.entries(message).filter(([key, value]) => !key.startsWith('_') && value !== null && value !== undefined)) as { [K in keyof T]?: NonNullable<T[K]> };
}

/** The gateway's signed resolution when it is of the repository `ref` names (else undefined: resolve it here). */
export function gatewayResolutionOf(ref: repository.RepositoryRef, scope: RepositoryScope | undefined): GatewayResolution | undefined {
  const r = scope?.repository;
  if (!r || r.owner_login.toLowerCase() !== ref.owner.toLowerCase() || r.name.toLowerCase() !== ref.name.toLowerCase()) return undefined;
  return { repositoryId: Number(r.id), permission: toAccessMode(scope.permission) };
}

/**
 * The repository a request names, with the caller's permission there: the gateway's
 * resolution when it sent one (the route already checked the permission it needs), else
 * resolved here (domain/repositories.ts repositoryFor). Reads of git data use its read form,
 * repositoryRead (read-access.ts), which takes the resolution whole and the refs statement's
 * fresh default branch and emptiness instead of reading the repository's row.
 */
export function repositoryOf(store: RepositoryStore, ref: repository.RepositoryRef, context: { caller: Caller; repository?: RepositoryScope }): Promise<RepositoryAccess> {
  return repositoryFor(store, ref.owner, ref.name, context.caller, gatewayResolutionOf(ref, context.repository));
}
