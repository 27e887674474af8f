import { describe, expect, it } from '@jest/globals';
import { permissionFlags, permissionOf, type PermissionFacts } from '../src/domain/permission.js';

const OWNER = 10;
function facts(over: Partial<PermissionFacts> & { callerId?: number; isAdmin?: boolean; restricted?: boolean; isPrivate?: boolean } = {}): PermissionFacts {
  return {
    repository: { owner_id: OWNER, private: over.isPrivate ?? false },
    owner: over.owner ?? { visibility: 'public' },
    caller: { userId: over.callerId ?? 20, isAdmin: over.isAdmin ?? false, restricted: over.restricted ?? false },
    collaboration: over.collaboration,
    teamModes: over.teamModes,
    isOrgOwner: over.isOrgOwner,
  };
}

describe('a caller\'s permission on a repository', () => {
  it('is owner for the owner, even on a private repository', () => {
    expect(permissionOf(facts({ callerId: OWNER, isPrivate: true }))).toBe('owner');
  });

  it('is admin for a site admin', () => {
    expect(permissionOf(facts({ isAdmin: true, isPrivate: true }))).toBe('admin');
  });

  it.each(['read', 'write', 'admin'] as const)('is the collaborator grant (%s) on a private repository', (mode) => {
    expect(permissionOf(facts({ isPrivate: true, collaboration: mode }))).toBe(mode);
  });

  it('is read for anyone, anonymous included, on a public repository', () => {
    expect(permissionOf(facts())).toBe('read');
    expect(permissionOf(facts({ callerId: 0 }))).toBe('read');
  });

  it('is none for others on a private repository', () => {
    expect(permissionOf(facts({ isPrivate: true }))).toBe('none');
    expect(permissionOf(facts({ callerId: 0, isPrivate: true }))).toBe('none');
  });

  it('gives restricted users only what they were granted', () => {
    expect(permissionOf(facts({ restricted: true }))).toBe('none');
    expect(permissionOf(facts({ restricted: true, collaboration: 'read' }))).toBe('read');
  });

  it('hides public repositories of private owners, and of limited owners from anonymous callers', () => {
    expect(permissionOf(facts({ owner: { visibility: 'private' } }))).toBe('none');
    expect(permissionOf(facts({ owner: { visibility: 'limited' }, callerId: 0 }))).toBe('none');
    expect(permissionOf(facts({ owner: { visibility: 'limited' } }))).toBe('read');
  });

  it('is none on private repositories for a public-only token, even the owner\'s', () => {
    const f = facts({ callerId: OWNER, isPrivate: true });
    expect(permissionOf({ ...f, caller: { ...f.caller, scopes: ['public-only', 'read:repository'] } })).toBe('none');
    const open = facts({ callerId: OWNER });
    expect(permissionOf({ ...open, caller: { ...open.caller, scopes: ['public-only', 'read:repository'] } })).toBe('owner');
  });

  it('takes the strongest of collaborator and team grants (the organization hook)', () => {
    expect(permissionOf(facts({ isPrivate: true, collaboration: 'read', teamModes: ['write'] }))).toBe('write');
    expect(permissionOf(facts({ isPrivate: true, isOrgOwner: true }))).toBe('owner');
  });

  it('maps modes to Gitea\'s permission flags', () => {
    expect(permissionFlags('none')).toEqual({ admin: false, push: false, pull: false });
    expect(permissionFlags('read')).toEqual({ admin: false, push: false, pull: true });
    expect(permissionFlags('write')).toEqual({ admin: false, push: true, pull: true });
    expect(permissionFlags('owner')).toEqual({ admin: true, push: true, pull: true });
  });
});
