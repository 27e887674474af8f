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

/** Whose keys may vouch for an address: the user owning it (verified) and the keys that name it or are verified. */
interface Committer {
  user: User;
  email: string;
  /** Parsed lazily: a signature that cannot be read never needs them. */
  keys(): Promise<{ stored: NonNullable<Awaited<ReturnType<typeof readStoredKey>>> }[]>;
}

async function committerOf(ctx: GpgKeys, committerEmail: string): Promise<Committer | undefined> {
  const address = committerEmail ? await ctx.identity.store.emailAddress(committerEmail) : undefined;
  const user = address?.verified ? await ctx.identity.store.userById(address.user_id) : undefined;
  if (!address || !user || user.type !== 'user') return undefined;
  let parsed: Promise<{ stored: NonNullable<Awaited<ReturnType<typeof readStoredKey>>> }[]> | undefined;
  const keys = () => (parsed ??= (async () => {
    const { items } = await ctx.keys.gpgKeysOf(user.id);
    const vouching = items.filter((key) => key.verified || key.emails.some((e) => e.toLowerCase() === address.email.toLowerCase()));
    const stored = await Promise.all(vouching.map((key) => readStoredKey(key.armored)));
    return stored.flatMap((k) => (k ? [{ stored: k }] : []));
  })());
  return { user, email: address.email, keys };
}

async function check(committer: Committer | undefined, armoredSignature: string, payload: Uint8Array): Promise<CommitSignatureVerification> {
  if (!committer) return unverified(SIGNATURE_REASONS.noCommitterAccount);
  const { user } = committer;
  const signature = await readDetachedSignature(armoredSignature);
  if (!signature) return unverified(SIGNATURE_REASONS.extractSign, user);
  for (const { stored } of await committer.keys()) {
    const keyId = await signingKeyId([stored], signature, payload);
    if (keyId) {
      return { verified: true, key_id: keyId, signer: user, signer_email: committer.email, reason: `${user.login} / ${keyId}` };
    }
  }
  return unverified(SIGNATURE_REASONS.noKeysFound, user);
}

export async function verifyCommitSignature(
  ctx: GpgKeys, committerEmail: string, armoredSignature: string, payload: Uint8Array,
): Promise<CommitSignatureVerification> {
  return check(await committerOf(ctx, committerEmail), armoredSignature, payload);
}

export interface SignedPayload {
  committerEmail: string;
  armoredSignature: string;
  payload: Uint8Array;
}

/** Most commits a page or a push may ask about at once. */
export const MAX_SIGNATURE_BATCH = 1000;

/**
 * Many signatures at once (a page of commits, a push's new commits), in order; each answer
 * is as the single call's. A committer's address, user and keys are read and parsed once per
 * batch, however many of their commits it holds.
 */
export async function verifyCommitSignatures(ctx: GpgKeys, signed: readonly SignedPayload[]): Promise<CommitSignatureVerification[]> {
  if (signed.length > MAX_SIGNATURE_BATCH) throw invalid(`at most ${MAX_SIGNATURE_BATCH} signatures per batch`, 'batch_too_large');
  const committers = new Map<string, Promise<Committer | undefined>>();
  const results: CommitSignatureVerification[] = [];
  for (const s of signed) {
    const key = s.committerEmail.toLowerCase();
    if (!committers.has(key)) committers.set(key, committerOf(ctx, s.committerEmail));
    results.push(await check(await committers.get(key), s.armoredSignature, s.payload));
  }
  return results;
}
