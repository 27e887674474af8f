// Commit authors remembered per process (grpc/commit-people-cache.ts): identity is asked once
// per address until a user event drops everything, concurrent misses share one question, and
// an answer that began before such an event is not kept.
import { describe, expect, it } from '@jest/globals';
import { CommitPeopleCache } from '../src/grpc/commit-people-cache.js';
import type { CommitPeople, IdentityUser } from '../src/domain/commits.js';

function identity(owners: Record<string, number>) {
  const asked: string[][] = [];
  let release: (() => void) | undefined;
  const source: CommitPeople & { asked: string[][]; hold(): void; go(): void } = {
    asked,
    hold() {
      const gate = new Promise<void>((r) => (release = r));
      this.usersByEmails = async (emails) => {
        asked.push([...emails]);
        await gate;
        return answer(emails);
      };
    },
    go: () => release?.(),
    async usersByEmails(emails) {
      asked.push([...emails]);
      return answer(emails);
    },
  };
  const answer = (emails: readonly string[]) => new Map<string, IdentityUser>(emails.flatMap((e) => (owners[e] ? [[e, { id: owners[e] }]] : [])));
  return source;
}

describe('commit authors remembered per process', () => {
  it('asks identity once per address, remembering who owns it and that nobody does', async () => {
    const source = identity({ 'ada@example.com': 1 });
    const cache = new CommitPeopleCache(source);
    expect([...(await cache.usersByEmails(['Ada@Example.com', 'nobody@example.com']))]).toEqual([['ada@example.com', { id: 1 }]]);
    expect([...(await cache.usersByEmails(['ada@example.com', 'nobody@example.com']))]).toEqual([['ada@example.com', { id: 1 }]]);
    expect(source.asked).toEqual([['ada@example.com', 'nobody@example.com']]);
  });

  it('asks again after an identity user event', async () => {
    const source = identity({ 'ada@example.com': 1 });
    const cache = new CommitPeopleCache(source);
    await cache.usersByEmails(['ada@example.com']);
    cache.dropAll();
    await cache.usersByEmails(['ada@example.com']);
    expect(source.asked).toHaveLength(2);
  });

  it('shares one question among concurrent misses, and keeps no answer that began before an event', async () => {
    const source = identity({ 'ada@example.com': 1 });
    source.hold();
    const cache = new CommitPeopleCache(source);
    const first = cache.usersByEmails(['ada@example.com']);
    const second = cache.usersByEmails(['ada@example.com']);
    cache.dropAll();
    source.go();
    expect((await first).get('ada@example.com')).toEqual({ id: 1 });
    expect((await second).get('ada@example.com')).toEqual({ id: 1 });
    expect(source.asked).toHaveLength(1);
    await cache.usersByEmails(['ada@example.com']);
    expect(source.asked).toHaveLength(2);
  });

  it('remembers nothing of a failed question', async () => {
    let fail = true;
    const cache = new CommitPeopleCache({ usersByEmails: async () => { if (fail) throw new Error('identity is down'); return new Map([['ada@example.com', { id: 1 }]]); } });
    await expect(cache.usersByEmails(['ada@example.com'])).rejects.toThrow('identity is down');
    fail = false;
    expect((await cache.usersByEmails(['ada@example.com'])).get('ada@example.com')).toEqual({ id: 1 });
  });
});
