// Shared helpers for the domain's unit tests.
import { expect } from '@jest/globals';
import { ANONYMOUS, DomainError, SYSTEM, type Caller } from '@anvil/kit';
import { createUser, editUser, type CreateUserInput } from '../../src/domain/accounts.js';
import type { Identity } from '../../src/domain/context.js';
import type { User } from '../../src/domain/user.js';

export { ANONYMOUS, SYSTEM };

export function callerOf(user: User, scopes: string[] = ['all']): Caller {
  return { userId: user.id, login: user.login, isAdmin: user.is_admin, restricted: user.restricted, scopes };
}

export function userInput(login: string, overrides: Partial<CreateUserInput> = {}): CreateUserInput {
  return {
    login,
    email: `${login.toLowerCase()}@example.com`,
    password: `secret-${login}`,
    full_name: '',
    must_change_password: false,
    is_admin: false,
    restricted: false,
    login_name: '',
    source_id: 0,
    ...overrides,
  };
}

/** A user as a site administrator creates it, then edited with `edits` (e.g. visibility). */
export async function givenUser(
  identity: Identity, login: string,
  overrides: Partial<CreateUserInput> = {}, edits: Omit<Parameters<typeof editUser>[2], 'login'> = {},
): Promise<User> {
  const user = await createUser(identity, SYSTEM, userInput(login, overrides));
  return Object.keys(edits).length ? editUser(identity, SYSTEM, { login, ...edits }) : user;
}

/** The DomainError a promise rejects with, as { kind, reason, message }. */
export async function failureOf(promise: Promise<unknown>): Promise<{ kind: string; reason: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    const e = err as DomainError;
    return { kind: e.kind, reason: e.reason, message: e.message };
  }
  throw new Error('expected the call to fail');
}
