// OAuth2's own error shape (RFC 6749 §5.2): `{"error": "<code>", "error_description": "..."}`,
// not Gitea's API error shape, since OAuth2 clients parse these.
import type { Response } from 'express';
import { DomainError } from '@anvil/kit';

const OAUTH2_CODES = new Set([
  'invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type',
  'unsupported_response_type', 'invalid_scope', 'access_denied', 'server_error', 'temporarily_unavailable',
]);

export interface OAuth2Failure {
  error: string;
  error_description: string;
}

/** The protocol error a failed service call stands for; undefined when it is not one (a bug or an outage). */
export function oauth2FailureOf(err: unknown): OAuth2Failure | undefined {
  if (!(err instanceof DomainError)) return undefined;
  if (OAUTH2_CODES.has(err.reason)) return { error: err.reason, error_description: err.message };
  if (err.kind === 'unauthenticated') return { error: 'invalid_client', error_description: err.message };
  if (err.kind === 'unavailable') return { error: 'temporarily_unavailable', error_description: err.message };
  if (err.kind === 'forbidden') return { error: 'access_denied', error_description: err.message };
  if (err.kind === 'invalid' || err.kind === 'bad_request' || err.kind === 'not_found') {
    return { error: 'invalid_request', error_description: err.message };
  }
  return undefined;
}

export function sendOAuth2Error(res: Response, status: number, failure: OAuth2Failure, headers: Record<string, string> = {}): void {
  const payload = JSON.stringify(failure);
  res.writeHead(status, {
    'content-type': 'application/json;charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(payload);
}

// No parameter of the OAuth2 endpoints (ids, secrets, codes, tokens, URIs) comes near it.
const MAX_PARAMETER_LENGTH = 4096;

/** `value` as a parameter may be: bounded and without NUL (PostgreSQL refuses NUL in text). */
export function checkedParam(name: string, value: string): string {
  if (value.length > MAX_PARAMETER_LENGTH) throw new InvalidParameter(`parameter ${name} is longer than ${MAX_PARAMETER_LENGTH} characters`);
  if (value.includes('\0')) throw new InvalidParameter(`parameter ${name} contains a NUL character`);
  return value;
}

/** A request parameter, which OAuth2 allows at most once (RFC 6749 §3.1). */
export function singleParam(source: Record<string, unknown> | undefined, name: string): string {
  const value = source?.[name];
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return checkedParam(name, value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new InvalidParameter(`parameter ${name} must be given once, as a string`);
}

/** A parameter the endpoint cannot use: repeated, not a string, too long, or with a NUL (400 invalid_request). */
export class InvalidParameter extends Error {}
