// GPG key records and what the GPG key rules need from storage (src/store/gpg-key-store.ts
// implements it over PostgreSQL; unit tests use an in-memory fake).
import type { Page, Paged } from './user.js';

/** What every key, primary or subkey, carries (Gitea's GPGKey columns). */
export interface GpgKeyMaterial {
  /** 16 upper-case hex digits. */
  key_id: string;
  /** Base64 of the public key packet. */
  content: string;
  can_sign: boolean;
  can_encrypt_comms: boolean;
  can_encrypt_storage: boolean;
  can_certify: boolean;
  created_at: Date;
  /** null: never expires. */
  expires_at: Date | null;
}

export interface GpgSubkey extends GpgKeyMaterial {
  id: number;
  primary_key_id: string;
}

/** A stored primary key with its subkeys. */
export interface GpgKey extends GpgKeyMaterial {
  id: number;
  owner_id: number;
  /** The armored block it was added from; signatures are verified against it. */
  armored: string;
  /** The owner's activated addresses found among the key's user ids. */
  emails: string[];
  verified: boolean;
  subkeys: GpgSubkey[];
}

export type NewGpgKey = Omit<GpgKey, 'id' | 'subkeys'> & { subkeys: GpgKeyMaterial[] };

/** A key id (primary or subkey) is already stored. */
export class GpgKeyIdTaken extends Error {
  constructor() {
    super('gpg key id already used');
  }
}

export interface GpgKeyStore {
  /** A user's primary keys with their subkeys, oldest first. */
  gpgKeysOf(ownerId: number, page?: Page): Promise<Paged<GpgKey>>;
  /** The user's primary key with this id. */
  gpgKey(ownerId: number, id: number): Promise<GpgKey | undefined>;
  /** The user's primary key with this key id. */
  gpgKeyByKeyId(ownerId: number, keyId: string): Promise<GpgKey | undefined>;
  /** Whether any key, primary or subkey, of anyone has one of these key ids. */
  gpgKeyIdsUsed(keyIds: string[]): Promise<boolean>;
  /** Inserts every key with its subkeys, all or none; throws GpgKeyIdTaken on a duplicate. */
  insertGpgKeys(keys: NewGpgKey[]): Promise<GpgKey[]>;
  /** Deletes the user's primary key and its subkeys; false when there is none. */
  deleteGpgKey(ownerId: number, id: number): Promise<boolean>;
  markGpgKeyVerified(id: number): Promise<void>;
}
