// The repository (or organization) the gateway resolved travels signed beside the caller,
// bound to that caller: a service must never accept one forged, re-keyed, or resolved for
// someone else.
import { Metadata } from '@grpc/grpc-js';
import { describe, expect, it } from '@jest/globals';
import type { Caller } from '../../src/grpc/caller.js';
import { readOrgScope, readRepositoryScope, writeOrgScope, writeRepositoryScope, type OrgScope, type RepositoryScope } from '../../src/grpc/repository-scope.js';

const ada: Caller = { userId: 7, login: 'ada', isAdmin: false, restricted: false, scopes: ['all'] };
const bob: Caller = { userId: 8, login: 'bob', isAdmin: false, restricted: false, scopes: ['all'] };
const scope = { permission: 'write', repository: { id: 42, owner_login: 'ada', name: 'tools', private: true, archived: false }, owner: { id: 7, login: 'ada' } } as unknown as RepositoryScope;

function carried(caller: Caller, secret: string): Metadata {
  const metadata = new Metadata();
  writeRepositoryScope(metadata, scope, caller, secret);
  return metadata;
}

describe('the signed repository scope', () => {
  it('arrives as it was sent for the caller it was resolved for', () => {
    expect(readRepositoryScope(carried(ada, 'one'), ada, 'one')).toEqual(scope);
  });

  it('is refused for another caller, with another secret, or when absent', () => {
    const metadata = carried(ada, 'one');
    expect(readRepositoryScope(metadata, ada, 'one')).toEqual(scope);
    expect(readRepositoryScope(metadata, bob, 'one')).toBeUndefined();
    expect(readRepositoryScope(metadata, ada, 'two')).toBeUndefined();
    expect(readRepositoryScope(new Metadata(), ada, 'one')).toBeUndefined();
  });

  it('is refused when its payload was changed', () => {
    const metadata = carried(ada, 'one');
    const [value] = metadata.get('x-anvil-repository') as string[];
    const [payload, signature] = value.split('.');
    const changed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    changed.scope.permission = 'owner';
    metadata.set('x-anvil-repository', `${Buffer.from(JSON.stringify(changed)).toString('base64url')}.${signature}`);
    expect(readRepositoryScope(metadata, ada, 'one')).toBeUndefined();
  });

  it('keeps an organization apart from a repository', () => {
    const org = { org: { account: { id: 9, login: 'acme' } }, caller_is_member: true, caller_is_owner: false } as unknown as OrgScope;
    const metadata = new Metadata();
    writeOrgScope(metadata, org, ada, 'one');
    expect(readOrgScope(metadata, ada, 'one')).toEqual(org);
    expect(readRepositoryScope(metadata, ada, 'one')).toBeUndefined();
  });
});
