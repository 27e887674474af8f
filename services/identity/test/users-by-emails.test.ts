// Naming the people of a page of commits: identity answers who owns each e-mail address in
// one batch (Gitea's GetUserByEmail, for every author and committer at once).
import { describe, expect, it } from '@jest/globals';
import { addEmails } from '../src/domain/emails.js';
import { getUsersByEmails } from '../src/domain/users.js';
import { memoryIdentity } from './support/memory-store.js';
import { callerOf, givenUser } from './support/fixtures.js';

describe('users by e-mail address', () => {
  it('finds the owner of a primary or added address in any case, keeping the address as asked', async () => {
    const identity = memoryIdentity();
    const alice = await givenUser(identity, 'alice');
    const bob = await givenUser(identity, 'bob');
    await addEmails(identity, callerOf(alice), alice.id, ['alice@work.example']);

    const found = await getUsersByEmails(identity, ['ALICE@example.com', 'alice@work.example', 'bob@example.com', 'nobody@example.com']);

    expect(found.map(({ email, user }) => [email, user.login])).toEqual([
      ['ALICE@example.com', 'alice'], ['alice@work.example', 'alice'], ['bob@example.com', 'bob'],
    ]);
    expect(found[2].user.id).toBe(bob.id);
  });

  it('answers each address once and nothing for an empty batch', async () => {
    const identity = memoryIdentity();
    await givenUser(identity, 'alice');
    expect(await getUsersByEmails(identity, ['alice@example.com', 'alice@example.com'])).toHaveLength(1);
    expect(await getUsersByEmails(identity, [])).toEqual([]);
  });
});
