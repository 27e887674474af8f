// Who is calling, as the gateway authenticated them. It travels in gRPC metadata signed
// with the internal secret ([security] INTERNAL_TOKEN): services trust nothing else.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';

export interface Caller {
  /** 0 for an anonymous caller. */
  userId: number;
  login: string;
  isAdmin: boolean;
  restricted: boolean;
  /** Token scopes; `["all"]` for password and internal callers. */
  scopes: string[];
}

export const ANONYMOUS: Caller = Object.freeze({ userId: 0, login: '', isAdmin: false, restricted: false, scopes: [] as string[] }) as Caller;

/** The identity a service uses when it acts for itself (admin bootstrap, event handlers). */
export const SYSTEM: Caller = Object.freeze({ userId: -1, login: 'anvil-system', isAdmin: true, restricted: false, scopes: ['all'] }) as Caller;

const CALLER_KEY = 'x-anvil-caller';

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/**
 * A value signed with the internal secret, as `<base64url json>.<hmac>`: the caller in gRPC
 * metadata, and the git smart-HTTP grant the gateway sends the repository service.
 */
export function signPayload(value: unknown, secret: string): string {
  const payload = Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

/** The value of a signPayload() token, or undefined when it is malformed or its signature is wrong. */
export function verifyPayload<T>(token: string, secret: string): T | undefined {
  const dot = token.lastIndexOf('.');
  if (dot < 0) return undefined;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(sign(secret, payload));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as T;
  } catch {
    return undefined;
  }
}

// Signing and verifying the caller is an HMAC over ~300 bytes on every gRPC call, on both
// sides. A signature depends only on the caller and the secret, so each side remembers it:
// the gateway reuses one Caller object per cached credential (callers are never mutated),
// and a service keeps the callers it has verified, bounded.
const signedCallers = new WeakMap<Caller, { secret: string; value: string }>();
const verifiedCallers = new Map<string, { secret: string; caller: Caller }>();
const VERIFIED_CALLERS_MAX = 10_000;

export function writeCaller(metadata: Metadata, caller: Caller, secret: string): void {
  let signed = signedCallers.get(caller);
  if (signed?.secret !== secret) {
    signed = { secret, value: signPayload(caller, secret) };
    signedCallers.set(caller, signed);
  }
  metadata.set(CALLER_KEY, signed.value);
}

/** The caller from metadata, or undefined when it is missing or its signature is wrong. */
export function readCaller(metadata: Metadata, secret: string): Caller | undefined {
  const [value] = metadata.get(CALLER_KEY);
  if (typeof value !== 'string') return undefined;
  const known = verifiedCallers.get(value);
  if (known?.secret === secret) return known.caller;
  const caller = verifyPayload<Caller>(value, secret);
  if (!caller) return undefined;
  if (verifiedCallers.size >= VERIFIED_CALLERS_MAX) verifiedCallers.clear();
  verifiedCallers.set(value, { secret, caller: Object.freeze(caller) });
  return caller;
}
