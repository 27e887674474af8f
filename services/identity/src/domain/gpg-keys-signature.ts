// Commit (and tag) signature verification against users' stored keys (Gitea's
// asymkey_service.ParseCommitWithSignature for GPG): the committer's e-mail names the user;
// a key vouches for that e-mail when the key is verified or lists it among its e-mails.
import { invalid } from '@anvil/kit';
import type { GpgKeys } from './gpg-keys.js';
import { readDetachedSignature, readStoredKey, signingKeyId } from './gpg-keys-parse.js';
import type { User } from './user.js';

export interface CommitSignatureVerification {
  verified: boolean;
  /** The key (primary or subkey) that made the signature, when verified. */
  key_id: string;
  signer?: User;
  signer_email: string;
  /** "<login> / <key id>" when verified, else Gitea's gpg.error.* message key. */
  reason: string;
}

export const SIGNATURE_REASONS = {
  noCommitterAccount: 'gpg.error.no_committer_account',
  extractSign: 'gpg.error.extract_sign',
  noKeysFound: 'gpg.error.no_gpg_keys_found',
} as const;

const unverified = (reason: string, signer?: User): CommitSignatureVerification =>
  ({ verified: false, key_id: '', signer, signer_email: '', reason });

export async function verifyCommitSignature(
  ctx: GpgKeys, committerEmail: string, armoredSignature: string, payload: Uint8Array,
): Promise<CommitSignatureVerification> {
  const address = committerEmail ? await ctx.identity.store.emailAddress(committerEmail) : undefined;
  const user = address?.verified ? await ctx.identity.store.userById(address.user_id) : undefined;
  if (!address || !user || user.type !== 'user') return unverified(SIGNATURE_REASONS.noCommitterAccount);

  const signature = await readDetachedSignature(armoredSignature);
  if (!signature) return unverified(SIGNATURE_REASONS.extractSign, user);

  const { items: keys } = await ctx.keys.gpgKeysOf(user.id);
  for (const key of keys) {
    const vouches = key.verified || key.emails.some((e) => e.toLowerCase() === address.email.toLowerCase());
    if (!vouches) continue;
    const stored = await readStoredKey(key.armored);
    if (!stored) continue;
    const keyId = await signingKeyId([stored], signature, payload);
    if (keyId) {
      return { verified: true, key_id: keyId, signer: user, signer_email: address.email, reason: `${user.login} / ${keyId}` };
    }
  }
  return unverified(SIGNATURE_REASONS.noKeysFound, user);
}

export interface SignedPayload {
  committerEmail: string;
  armoredSignature: string;
  payload: Uint8Array;
}

/** Most commits a page or a push may ask about at once. */
export const MAX_SIGNATURE_BATCH = 1000;

/**
 * Many signatures at once (a page of commits, a push's new commits), in order. The same
 * committer's keys are verified one signature at a time; each answer is as the single call's.
 */
export async function verifyCommitSignatures(ctx: GpgKeys, signed: readonly SignedPayload[]): Promise<CommitSignatureVerification[]> {
  if (signed.length > MAX_SIGNATURE_BATCH) throw invalid(`at most ${MAX_SIGNATURE_BATCH} signatures per batch`, 'batch_too_large');
  const results: CommitSignatureVerification[] = [];
  for (const s of signed) results.push(await verifyCommitSignature(ctx, s.committerEmail, s.armoredSignature, s.payload));
  return results;
}
