// What every repository gRPC adapter reads from a request the same way.
import type { repository } from '@anvil/proto';

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
