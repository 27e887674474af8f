// An in-memory GpgKeyStore for the GPG key rules' unit tests: unique key ids across all
// keys and subkeys, inserts that land all or none.
import { GpgKeyIdTaken, type GpgKey, type GpgKeyStore, type NewGpgKey } from '../../src/domain/gpg-keys-store.js';

export class MemoryGpgKeyStore implements GpgKeyStore {
  keys: GpgKey[] = [];
  private nextId = 1;

  private allKeyIds(): string[] {
    return this.keys.flatMap((k) => [k.key_id, ...k.subkeys.map((s) => s.key_id)]);
  }

  async gpgKeysOf(ownerId: number, page?: { page: number; limit: number }) {
    const owned = this.keys.filter((k) => k.owner_id === ownerId);
    const items = page ? owned.slice((page.page - 1) * page.limit, page.page * page.limit) : owned;
    return { items, total: owned.length };
  }

  async gpgKey(ownerId: number, id: number) {
    return this.keys.find((k) => k.owner_id === ownerId && k.id === id);
  }

  async gpgKeyByKeyId(ownerId: number, keyId: string) {
    return this.keys.find((k) => k.owner_id === ownerId && k.key_id === keyId);
  }

  async gpgKeyIdsUsed(keyIds: string[]) {
    const used = new Set(this.allKeyIds());
    return keyIds.some((id) => used.has(id));
  }

  async insertGpgKeys(keys: NewGpgKey[]) {
    const ids = keys.flatMap((k) => [k.key_id, ...k.subkeys.map((s) => s.key_id)]);
    if (await this.gpgKeyIdsUsed(ids)) throw new GpgKeyIdTaken();
    const added = keys.map((key): GpgKey => {
      const id = this.nextId++;
      return { ...key, id, subkeys: key.subkeys.map((s) => ({ ...s, id: this.nextId++, primary_key_id: key.key_id })) };
    });
    this.keys.push(...added);
    return added;
  }

  async deleteGpgKey(ownerId: number, id: number) {
    const before = this.keys.length;
    this.keys = this.keys.filter((k) => !(k.owner_id === ownerId && k.id === id));
    return this.keys.length < before;
  }

  async markGpgKeyVerified(id: number) {
    const key = this.keys.find((k) => k.id === id);
    if (key) key.verified = true;
  }
}
