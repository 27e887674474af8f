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

export function writeCaller(metadata: Metadata, caller: Caller, secret: string): void {
  const payload = Buffer.from(JSON.stringify(caller)).toString('base64url');
  metadata.set(CALLER_KEY, `${payload}.${sign(secret, payload)}`);
}

/** The caller from metadata, or undefined when it is missing or its signature is wrong. */
export function readCaller(metadata: Metadata, secret: string): Caller | undefined {
  const [value] = metadata.get(CALLER_KEY);
  if (typeof value !== 'string') return undefined;
  const dot = value.lastIndexOf('.');
  if (dot < 0) return undefined;
  const payload = value.slice(0, dot);
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(sign(secret, payload));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Caller;
  } catch {
    return undefined;
  }
}
