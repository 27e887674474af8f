// Reading armored OpenPGP material with openpgp.js, in the terms Gitea stores
// (models/asymkey/gpg_key_add.go parseGPGKey / parseSubGPGKey).
import type * as openpgp from 'openpgp';
import { invalid } from '@anvil/kit';
import type { GpgKeyMaterial } from './gpg-keys-store.js';

export interface ParsedGpgKey extends GpgKeyMaterial {
  /** E-mail addresses of the key's user ids that are not revoked, as written. */
  user_emails: string[];
  subkeys: GpgKeyMaterial[];
  /** This key alone, armored. */
  armored: string;
  key: openpgp.PublicKey;
}

// Gitea decides capabilities from the algorithm (Go's PublicKey.CanSign and
// PublicKeyAlgorithm.CanEncrypt), not from key flags; so does Anvil, to show the same values.
const ENCRYPT_ONLY = new Set(['rsaEncrypt', 'elgamal', 'ecdh', 'x25519', 'x448']);
const CAN_ENCRYPT = new Set(['rsaEncryptSign', 'rsaEncrypt', 'elgamal', 'ecdh', 'x25519', 'x448']);

type OpenPgp = typeof openpgp;
let loaded: OpenPgp | undefined;

/**
 * openpgp.js, imported on first use: it costs about 17 MiB resident, and most identity
 * processes never read a GPG key.
 */
async function library(): Promise<OpenPgp> {
  return (loaded ??= await import('openpgp'));
}

/** 16 upper-case hex digits (Go's KeyIdString). */
export const keyIdString = (keyId: openpgp.KeyID): string => keyId.toHex().toUpperCase();

function packetBase64(lib: OpenPgp, packet: openpgp.AnyKeyPacket): string {
  const list = new lib.PacketList<openpgp.AnyPacket>();
  list.push(packet);
  return Buffer.from(list.write() as Uint8Array).toString('base64');
}

function materialOf(
  lib: OpenPgp,
  key: { getKeyID(): openpgp.KeyID; getAlgorithmInfo(): openpgp.AlgorithmInfo; getCreationTime(): Date },
  packet: openpgp.AnyKeyPacket,
  expires: Date | null,
): GpgKeyMaterial {
  const algorithm = String(key.getAlgorithmInfo().algorithm);
  const canSign = !ENCRYPT_ONLY.has(algorithm);
  return {
    key_id: keyIdString(key.getKeyID()),
    content: packetBase64(lib, packet),
    can_sign: canSign,
    can_encrypt_comms: CAN_ENCRYPT.has(algorithm),
    can_encrypt_storage: CAN_ENCRYPT.has(algorithm),
    can_certify: canSign,
    created_at: key.getCreationTime(),
    expires_at: expires,
  };
}

async function expiryOf(key: openpgp.PublicKey): Promise<Date | null> {
  try {
    const expires = await key.getExpirationTime();
    return expires instanceof Date ? expires : null;
  } catch {
    // No valid self-signature to read a lifetime from: Gitea shows no expiry either.
    return null;
  }
}

export const gpgKeyParsingFailed = (detail: string) =>
  invalid(`failed to parse gpg key ${detail}`, 'gpg_key_parsing');

/** Every key of an armored public key block; a block openpgp cannot read is a 422. */
export async function parseArmoredGpgKeys(armored: string): Promise<ParsedGpgKey[]> {
  const lib = await library();
  let keys: openpgp.Key[];
  try {
    keys = await lib.readKeys({ armoredKeys: armored });
  } catch (err) {
    throw gpgKeyParsingFailed((err as Error).message);
  }
  const parsed: ParsedGpgKey[] = [];
  const seen = new Set<string>();
  for (const key of keys) {
    if (key.isPrivate()) throw gpgKeyParsingFailed('a private key was given: add the public key only');
    const publicKey = key as openpgp.PublicKey;
    const expires = await expiryOf(publicKey);
    const primary = materialOf(lib, publicKey, publicKey.keyPacket, expires);
    // One block may repeat a key (Gitea coalesces them): keep the first.
    if (seen.has(primary.key_id)) continue;
    seen.add(primary.key_id);
    const userEmails: string[] = [];
    for (const user of publicKey.users) {
      if (!user.userID || user.revocationSignatures.length > 0) continue;
      if (user.userID.email) userEmails.push(user.userID.email);
    }
    parsed.push({
      ...primary,
      user_emails: userEmails,
      subkeys: publicKey.subkeys.map((subkey) => materialOf(lib, subkey, subkey.keyPacket, expires)),
      armored: publicKey.armor(),
      key: publicKey,
    });
  }
  if (parsed.length === 0) throw gpgKeyParsingFailed('no public key found');
  return parsed;
}

/** Reads an armored detached signature; undefined when it is not one. */
export async function readDetachedSignature(armored: string): Promise<openpgp.Signature | undefined> {
  try {
    return await (await library()).readSignature({ armoredSignature: armored });
  } catch {
    return undefined;
  }
}

/**
 * The key id (primary or subkey) that made a good signature over `payload` among `keys`,
 * or undefined. Verified at the signature's own time, so a key that expired since still
 * vouches for what it signed while valid.
 */
export async function signingKeyId(keys: openpgp.PublicKey[], signature: openpgp.Signature, payload: Uint8Array): Promise<string | undefined> {
  const packet = signature.packets[0];
  const date = packet?.created ?? undefined;
  try {
    const message = await (await library()).createMessage({ binary: payload });
    const result = await (await library()).verify({ message, signature, verificationKeys: keys, expectSigned: true, ...(date ? { date } : {}) });
    const [first] = result.signatures;
    return first ? keyIdString(first.keyID) : undefined;
  } catch {
    return undefined;
  }
}

export async function readStoredKey(armored: string): Promise<openpgp.PublicKey | undefined> {
  try {
    return await (await library()).readKey({ armoredKey: armored }) as openpgp.PublicKey;
  } catch {
    return undefined;
  }
}
