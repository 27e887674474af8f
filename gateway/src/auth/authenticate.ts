// Resolves who is calling before any /api/v1 route runs: the credential (cached, see
// credential-cache.ts), then Gitea's sudo for site admins. The result sits in
// res.locals.auth for the route table.
import type { NextFunction, Request, Response } from 'express';
import { ANONYMOUS, DomainError, SYSTEM, type Caller } from '@anvil/kit';
import type { identity } from '@anvil/proto';
import { sendError } from '../http/errors.js';
import type { Deps } from '../http/route.js';
import { credentialKey, type Authenticated, type CredentialCache } from './credential-cache.js';
import { MalformedCredential, readCredential, readSudo, type Credential } from './credentials.js';

export interface AuthState {
  caller: Caller;
  /** How the caller signed in: `token`, `oauth2`, `password`, or `none`. */
  method: string;
  /** The signed-in user as identity returned it (before sudo). */
  user?: identity.User;
}

export const ANONYMOUS_AUTH: AuthState = Object.freeze({ caller: ANONYMOUS, method: 'none' });

export function callerOf(user: identity.User, scopes: string[]): Caller {
  return { userId: user.id, login: user.login, isAdmin: user.is_admin, restricted: user.restricted, scopes };
}

/** Resolves a credential through the cache; throws the service's DomainError when it is wrong. */
export async function resolveCredential(deps: Deps, credential: Credential, key = credentialKey(credential)): Promise<AuthState> {
  const reply = await deps.credentials.get(key, () =>
    deps.services.identity.Authenticate(
      credential.kind === 'token' ? { token: credential.token } : { basic: { username: credential.username, password: credential.password } },
      { caller: ANONYMOUS },
    ),
  );
  return stateOf(reply);
}

/**
 * Who a credential (its credentialKey; '' for none) signs in as while the cache still holds
 * it fresh, without asking identity: the same AuthState object resolveCredential gave.
 */
export function rememberedAuth(credentials: CredentialCache, key: string): AuthState | undefined {
  if (key === '') return ANONYMOUS_AUTH;
  const reply = credentials.peek(key);
  return reply && stateOf(reply);
}

function stateOf(reply: Authenticated): AuthState {
  let state = states.get(reply);
  if (!state) {
    const user = reply.user!;
    state = { caller: callerOf(user, reply.scopes), method: reply.method, user };
    states.set(reply, state);
  }
  return state;
}

/**
 * One AuthState (and so one Caller object) per cached Authenticate reply: kit signs a
 * caller once per object, so requests with the same credential reuse the signature.
 */
const states = new WeakMap<object, AuthState>();

export function authenticate(deps: Deps) {
  const rootUrl = deps.config.rootUrl;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    let credential: Credential | undefined;
    try {
      credential = readCredential(req);
    } catch (err) {
      if (err instanceof MalformedCredential) return sendError(res, 401, err.message, rootUrl);
      throw err;
    }
    let state: AuthState = ANONYMOUS_AUTH;
    // Kept for the answer shortcuts (caches/answer-shortcuts.ts): '' when none was presented.
    res.locals.credentialKey = '';
    if (credential) {
      try {
        res.locals.credentialKey = credentialKey(credential);
        state = await resolveCredential(deps, credential, res.locals.credentialKey as string);
      } catch (err) {
        if (err instanceof DomainError && (err.kind === 'unauthenticated' || err.kind === 'forbidden')) {
          return sendError(res, err.kind === 'forbidden' ? 403 : 401, err.message, rootUrl);
        }
        return next(err);
      }
    }
    const sudo = readSudo(req);
    if (sudo) {
      res.locals.sudo = true;
      if (!state.caller.isAdmin) return sendError(res, 403, 'Only administrators allowed to sudo.', rootUrl);
      try {
        const target = await deps.services.identity.GetUser({ login: sudo }, { caller: SYSTEM });
        state = { caller: callerOf(target, state.caller.scopes), method: state.method, user: target };
      } catch (err) {
        if (err instanceof DomainError && err.kind === 'not_found') return sendError(res, 404, 'The target couldn\'t be found.', rootUrl);
        return next(err);
      }
    }
    res.locals.auth = state;
    next();
  };
}
