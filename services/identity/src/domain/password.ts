// Passwords are stored as argon2id (@node-rs/argon2's defaults: 19 MiB, 2 passes, 1 lane,
// the OWASP baseline) in PHC string form, which names its own parameters.
import { randomUUID } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { DomainError } from '@anvil/kit';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password or an unusable stored hash. */
  verify(passwd: string, password: string): Promise<boolean>;
  /**
   * Spends the time a verification takes and returns false: used when the account does not
   * exist or has no password, so a response time does not tell which logins exist.
   */
  verifyNothing(password: string): Promise<false>;
}

export function argon2Hasher(): PasswordHasher {
  // Computed once, on first need: a real hash with the same parameters, of a random secret.
  let dummy: Promise<string> | undefined;
  return {
    hash: (password) => hash(password),
    async verify(passwd, password) {
      try {
        return await verify(passwd, password);
      } catch {
        return false; // not a PHC string we can read
      }
    },
    async verifyNothing(password) {
      dummy ??= hash(randomUUID());
      await verify(await dummy, password).catch(() => false);
      return false;
    },
  };
}

/** Gitea measures [security] MIN_PASSWORD_LENGTH in bytes (Go's len). */
export function passwordLength(password: string): number {
  return Buffer.byteLength(password, 'utf8');
}

export function passwordTooShort(message: string): DomainError {
  return new DomainError('bad_request', message, 'password_too_short');
}
