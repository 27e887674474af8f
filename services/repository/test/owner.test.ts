// Unit tests of the owner rules, over an in-memory store.
import { describe, it, expect } from '@jest/globals';
import { DomainError } from '@anvil/kit';
import { getOwner, type Owner, type OwnerReader } from '../src/domain/owner.js';
import { applyOwnerChange, type OwnerWriter } from '../src/domain/owner-read-model.js';

function owner(id: number, login: string, extra: Partial<Owner> = {}): Owner {
  return { id, login, type: 'user', isAdmin: false, restricted: false, visibility: 'public', fullName: '', email: '', maxRepoCreation: -1, ...extra };
}

function memoryStore(): OwnerReader & OwnerWriter & { rows: Map<number, Owner>; deleted: Set<number> } {
  const rows = new Map<number, Owner>();
  const deleted = new Set<number>();
  return {
    rows,
    deleted,
    async findById(id) {
      return rows.get(id);
    },
    async findByLogin(login) {
      return [...rows.values()].find((o) => o.login.toLowerCase() === login.toLowerCase());
    },
    async isDeleted(id) {
      return deleted.has(id);
    },
    async insertIfAbsent(o) {
      if (!rows.has(o.id)) rows.set(o.id, o);
    },
    async save(o) {
      rows.set(o.id, o);
    },
    async remove(id) {
      rows.delete(id);
      deleted.add(id);
    },
  };
}

describe('getOwner', () => {
  it('finds an owner by id, or by login without regard to case', async () => {
    const store = memoryStore();
    await store.save(owner(1, 'Alice'));
    expect(await getOwner(store, { id: 1 })).toMatchObject({ login: 'Alice' });
    expect(await getOwner(store, { login: 'aLiCe' })).toMatchObject({ id: 1 });
  });

  it('raises not_found for an unknown owner', async () => {
    const failure = await getOwner(memoryStore(), { login: 'ghost' }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(DomainError);
    expect(failure).toMatchObject({ kind: 'not_found', reason: 'owner_not_found' });
  });

  it('raises invalid when no key is given', async () => {
    await expect(getOwner(memoryStore(), undefined)).rejects.toMatchObject({ kind: 'invalid' });
  });
});

describe('applyOwnerChange', () => {
  it('does not let a late creation overwrite a newer stored state', async () => {
    const store = memoryStore();
    await applyOwnerChange(store, { kind: 'updated', owner: owner(1, 'renamed') });
    await applyOwnerChange(store, { kind: 'created', owner: owner(1, 'original') });
    expect(store.rows.get(1)?.login).toBe('renamed');
  });

  it('replaces the stored state with the one an update carries', async () => {
    const store = memoryStore();
    await applyOwnerChange(store, { kind: 'created', owner: owner(1, 'a') });
    await applyOwnerChange(store, { kind: 'updated', owner: owner(1, 'a', { isAdmin: true, fullName: 'A' }) });
    expect(store.rows.get(1)).toMatchObject({ isAdmin: true, fullName: 'A' });
  });

  it('ignores creations and updates for an owner already deleted', async () => {
    const store = memoryStore();
    await applyOwnerChange(store, { kind: 'created', owner: owner(1, 'a') });
    await applyOwnerChange(store, { kind: 'deleted', id: 1 });
    expect(await applyOwnerChange(store, { kind: 'updated', owner: owner(1, 'a') })).toBe('ignored_stale');
    expect(await applyOwnerChange(store, { kind: 'created', owner: owner(1, 'a') })).toBe('ignored_stale');
    expect(store.rows.has(1)).toBe(false);
  });
});
