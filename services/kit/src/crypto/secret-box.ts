// Secrets a service must use again later (a webhook's HMAC secret and Authorization header)
// are kept encrypted at rest, as Gitea keeps them with its SECRET_KEY: AES-256-GCM with a
// key derived (HKDF-SHA256) from `[security] SECRET_KEY`, or, when none is set, from
// `[security] INTERNAL_TOKEN`, which every deployment already has and keeps. A value is
// stored as `enc:v1:<base64url(iv | tag | ciphertext)>`; the tag makes a tampered or
// wrongly-keyed value fail loudly instead of decrypting to garbage.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export interface SecretBox {
  /** The stored form of `plain`; '' stays '' (no secret). */
  seal(plain: string): string;
  /** The clear value of a stored one. A value stored before encryption (no prefix) is returned as it is. */
  open(stored: string): string;
  /** Whether a stored value is encrypted (false for '' and for values from before encryption). */
  isSealed(stored: string): boolean;
}

/** A box whose key is derived from `keyMaterial` for one `purpose` (distinct keys per use). */
export function secretBox(keyMaterial: string, purpose: string): SecretBox {
  if (!keyMaterial) throw new Error('a secret box needs key material ([security] SECRET_KEY or INTERNAL_TOKEN)');
  const key = Buffer.from(hkdfSync('sha256', keyMaterial, 'anvil secret box', purpose, 32));
  return {
    seal(plain) {
      if (!plain) return '';
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
    },
    open(stored) {
      if (!stored.startsWith(PREFIX)) return stored;
      const raw = Buffer.from(stored.slice(PREFIX.length), 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    },
    isSealed: (stored) => stored.startsWith(PREFIX),
  };
}
