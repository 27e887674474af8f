// Credentials of a remote (a pull mirror's source, a push mirror's target) at rest: sealed
// with AES-256-GCM under a key derived from [security] INTERNAL_TOKEN and kept next to the
// remote in the repository's git config (`anvil.<remote>.sealedcredentials`, a key git
// itself ignores), so neither the config file, nor a backup of it, nor the database holds
// them in clear. They are opened only to hand them to one git process, through its
// environment (mirror-git.ts), never its command line.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { RemoteCredentials } from '../domain/remote-address.js';

export interface CredentialSeal {
  seal(credentials: RemoteCredentials): string;
  /** The credentials, or undefined when the value was not sealed with this key (or was altered). */
  open(sealed: string): RemoteCredentials | undefined;
}

export function credentialSeal(secret: string): CredentialSeal {
  const key = createHash('sha256').update('anvil remote credentials\0').update(secret).digest();
  return {
    seal(credentials) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify([credentials.username, credentials.password]), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
    },
    open(sealed) {
      try {
        const raw = Buffer.from(sealed, 'base64url');
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        const [username, password] = JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')) as [string, string];
        return { username, password };
      } catch {
        return undefined;
      }
    },
  };
}
