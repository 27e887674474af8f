// A user's GPG keys (Gitea's routers/api/v1/user/gpg_key.go and models/asymkey
// gpg_key_add.go / gpg_key_verify.go): adding checks the key's e-mails against the user's
// activated addresses, or a signature over the verification token; keys are the owner's
// and the site administrators' to change, anyone's to read.
import { invalid, notFound, type Caller } from '@anvil/kit';
import { existingUser, pageOf, requireSelfOrAdmin, userNotFound, type Identity } from './context.js';
import {
  parseArmoredGpgKeys, readDetachedSignature, readStoredKey, signingKeyId, type ParsedGpgKey,
} from './gpg-keys-parse.js';
import { GpgKeyIdTaken, type GpgKey, type GpgKeyStore, type NewGpgKey } from './gpg-keys-store.js';
import { tokenPayloads, verificationToken } from './gpg-keys-token.js';
import type { EmailAddress, Paged, User } from './user.js';

export interface GpgKeys {
  identity: Identity;
  keys: GpgKeyStore;
}

export const gpgKeyNotFound = () => notFound('GPG key does not exist', 'gpg_key_not_found');
const keyIdTaken = () => invalid('A key with the same id already exists', 'gpg_key_id_used');
const invalidTokenSignature = (token: string) => invalid(
  `The provided GPG key, signature and token do not match or token is out of date. Provide a valid signature for the token: ${token}`,
  'gpg_invalid_token_signature',
);

/**
 * A user's keys, named by id or login, with the user: who may see them is the gateway's
 * call (the user's visibility), made on the owner returned here.
 */
export async function listGpgKeys(
  ctx: GpgKeys, owner: { id: number } | { login: string }, page?: { page?: number; limit?: number } | null,
): Promise<Paged<GpgKey> & { owner: User }> {
  const user = 'id' in owner ? await ctx.identity.store.userById(owner.id) : await ctx.identity.store.userByLogin(owner.login);
  if (!user || user.type !== 'user') throw userNotFound('id' in owner ? owner : { login: owner.login });
  return { ...(await ctx.keys.gpgKeysOf(user.id, pageOf(page, ctx.identity.settings))), owner: user };
}

/** Another user's key is not found, as Gitea answers (not forbidden). */
export async function getGpgKey(ctx: GpgKeys, caller: Caller, userId: number, id: number): Promise<GpgKey> {
  requireSelfOrAdmin(caller, userId);
  const key = id > 0 ? await ctx.keys.gpgKey(userId, id) : undefined;
  if (!key) throw gpgKeyNotFound();
  return key;
}

export async function deleteGpgKey(ctx: GpgKeys, caller: Caller, userId: number, id: number): Promise<void> {
  requireSelfOrAdmin(caller, userId);
  if (!(id > 0 && (await ctx.keys.deleteGpgKey(userId, id)))) throw gpgKeyNotFound();
}

export async function gpgKeyToken(ctx: GpgKeys, caller: Caller, userId: number, now = new Date()): Promise<string> {
  requireSelfOrAdmin(caller, userId);
  return verificationToken(await existingUser(ctx.identity, userId), 1, now);
}

/** The key whose good signature over one of the payloads is given, if any. */
async function signerAmong(keys: ParsedGpgKey[], armoredSignature: string, payloads: Uint8Array[]): Promise<ParsedGpgKey | undefined> {
  const signature = await readDetachedSignature(armoredSignature);
  if (!signature) return undefined;
  for (const payload of payloads) {
    const keyId = await signingKeyId(keys.map((k) => k.key), signature, payload);
    if (keyId) return keys.find((k) => k.key_id === keyId || k.subkeys.some((s) => s.key_id === keyId));
  }
  return undefined;
}

/**
 * The user's activated addresses among the key's user ids. Without a token signature a key
 * must name at least one of them (Gitea's ErrGPGNoEmailFound, a 404).
 */
export function matchedEmails(key: Pick<ParsedGpgKey, 'user_emails' | 'key_id'>, addresses: readonly EmailAddress[], verified: boolean, token: string): string[] {
  const matched: string[] = [];
  for (const email of key.user_emails) {
    const lower = email.trim().toLowerCase();
    const address = addresses.find((a) => a.verified && a.email.toLowerCase() === lower);
    if (address && !matched.includes(address.email)) matched.push(address.email);
  }
  if (!verified && matched.length === 0) {
    // Gitea answers 404 here (HandleAddGPGKeyError), with this message word for word.
    throw notFound(
      `None of the emails attached to the GPG key could be found. It may still be added if you provide a valid signature for the token: ${token}`,
      'gpg_no_email_found',
    );
  }
  return matched;
}

/**
 * Adds every key of an armored block (Gitea answers with the first). With a signature over
 * the user's verification token, only the signing key is added, and it is verified.
 */
export async function addGpgKey(
  ctx: GpgKeys, caller: Caller, userId: number, armoredKey: string, armoredSignature: string, now = new Date(),
): Promise<GpgKey> {
  requireSelfOrAdmin(caller, userId);
  const user = await existingUser(ctx.identity, userId);
  let keys = await parseArmoredGpgKeys(armoredKey);
  const token = verificationToken(user, 1, now);
  const verified = armoredSignature !== '';
  if (verified) {
    const payloads = [...tokenPayloads(token), ...tokenPayloads(verificationToken(user, 0, now))];
    const signer = await signerAmong(keys, armoredSignature, payloads);
    if (!signer) throw invalidTokenSignature(token);
    keys = [signer];
  }
  // As Gitea's AddGPGKey: a key id already in use (422) is refused before the e-mails (404).
  const allIds = keys.flatMap((k) => [k.key_id, ...k.subkeys.map((s) => s.key_id)]);
  if (new Set(allIds).size !== allIds.length || (await ctx.keys.gpgKeyIdsUsed(allIds))) throw keyIdTaken();
  const addresses = await ctx.identity.store.emailsOf(user.id);
  const records: NewGpgKey[] = keys.map((key) => ({
    owner_id: user.id,
    key_id: key.key_id,
    content: key.content,
    can_sign: key.can_sign,
    can_encrypt_comms: key.can_encrypt_comms,
    can_encrypt_storage: key.can_encrypt_storage,
    can_certify: key.can_certify,
    created_at: key.created_at,
    expires_at: key.expires_at,
    armored: key.armored,
    emails: matchedEmails(key, addresses, verified, token),
    verified,
    subkeys: key.subkeys,
  }));
  try {
    const [first] = await ctx.keys.insertGpgKeys(records);
    return first!;
  } catch (err) {
    // Added concurrently by another request.
    if (err instanceof GpgKeyIdTaken) throw keyIdTaken();
    throw err;
  }
}

/** Normalises a key id as typed: case-insensitive, leading zeros optional. */
function normaliseKeyId(keyId: string): string {
  const trimmed = keyId.trim().replace(/^0+/, '').toUpperCase();
  return trimmed && /^[0-9A-F]{1,16}$/.test(trimmed) ? trimmed.padStart(16, '0') : '';
}

/** Marks the caller's key verified when the signature covers the current (or last) token. */
export async function verifyGpgKey(
  ctx: GpgKeys, caller: Caller, userId: number, keyId: string, armoredSignature: string, now = new Date(),
): Promise<GpgKey> {
  requireSelfOrAdmin(caller, userId);
  const user: User = await existingUser(ctx.identity, userId);
  const normalised = normaliseKeyId(keyId);
  const key = normalised ? await ctx.keys.gpgKeyByKeyId(user.id, normalised) : undefined;
  if (!key) throw gpgKeyNotFound();
  const token = verificationToken(user, 1, now);
  const stored = await readStoredKey(key.armored);
  const signature = await readDetachedSignature(armoredSignature);
  if (!stored || !signature) throw invalidTokenSignature(token);
  const payloads = [...tokenPayloads(token), ...tokenPayloads(verificationToken(user, 0, now))];
  for (const payload of payloads) {
    if (await signingKeyId([stored], signature, payload)) {
      await ctx.keys.markGpgKeyVerified(key.id);
      return { ...key, verified: true };
    }
  }
  throw invalidTokenSignature(token);
}
