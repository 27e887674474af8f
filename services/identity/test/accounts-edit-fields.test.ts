// PATCH /admin/users/{username} honours every field of Gitea's EditUserOption, including
// the ones the User JSON does not show (git hooks, local imports, repository limit).
import { describe, it, expect } from '@jest/globals';
import { editUser } from '../src/domain/accounts.js';
import { memoryIdentity } from './support/memory-store.js';
import { SYSTEM, givenUser } from './support/fixtures.js';

describe('editing every EditUserOption field', () => {
  it('applies each field given and keeps the rest', async () => {
    const identity = memoryIdentity();
    await givenUser(identity, 'alice');
    const edited = await editUser(identity, SYSTEM, {
      login: 'alice',
      email: 'alice@elsewhere.org',
      password: 'a-longer-password',
      full_name: 'Alice A.',
      must_change_password: true,
      admin: true,
      active: false,
      prohibit_login: true,
      restricted: true,
      location: 'Wonderland',
      website: 'https://alice.example',
      description: 'Down the hole',
      visibility: 'private',
      max_repo_creation: 3,
      allow_create_organization: false,
      allow_git_hook: true,
      allow_import_local: true,
      login_name: 'alice-ext',
      source_id: 0,
    });
    expect(edited).toMatchObject({
      email: 'alice@elsewhere.org', full_name: 'Alice A.', must_change_password: true, is_admin: true, active: false,
      prohibit_login: true, restricted: true, location: 'Wonderland', website: 'https://alice.example',
      description: 'Down the hole', visibility: 'private', max_repo_creation: 3, allow_create_organization: false,
      allow_git_hook: true, allow_import_local: true, login_name: 'alice-ext',
    });
    expect(await identity.hasher.verify(edited.passwd, 'a-longer-password')).toBe(true);
    expect((await identity.store.emailsOf(edited.id)).find((e) => e.is_primary)?.email).toBe('alice@elsewhere.org');
  });
});
