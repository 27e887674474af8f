import { describe, expect, it } from '@jest/globals';
import type { Caller } from '@anvil/kit';
import { AnswerCache, type Answer, type AnswerSubject } from '../src/caches/answers.js';
import { RepositoryAccessCache } from '../src/caches/repository-access.js';

const alice: Caller = { userId: 5, login: 'alice', isAdmin: false, restricted: false, scopes: ['all'] };
const bob: Caller = { userId: 6, login: 'bob', isAdmin: false, restricted: false, scopes: ['all'] };
const issues = (caller = alice, url = '/api/v1/repos/alice/app/issues'): AnswerSubject => ({
  operationId: 'issueListIssues', repositoryId: '1', owner: 'Alice', name: 'App', permission: 'owner', caller, url,
});
const scope = RepositoryAccessCache.repositoryOf('alice', 'app');

/** A route that counts its runs and answers the current `body` (read at call time). */
function route(initial = '[]') {
  const state = { runs: 0, body: initial };
  const compute = async (): Promise<Answer> => (state.runs++, { status: 200, headers: { 'x-total-count': '0' }, body: Buffer.from(state.body) });
  return { state, compute };
}

const text = (answer: Answer | undefined) => answer?.body.toString();

describe('answers remembered by the gateway', () => {
  it('answers a read again within its TTL without running the route', async () => {
    const cache = new AnswerCache(10_000);
    const { state, compute } = route();
    await cache.get(issues(), compute);
    expect(text(await cache.get(issues(), compute))).toBe('[]');
    expect(state.runs).toBe(1);
  });

  it('runs the route once for concurrent reads of one answer', async () => {
    const cache = new AnswerCache(10_000);
    const { state, compute } = route();
    await Promise.all([cache.get(issues(), compute), cache.get(issues(), compute), cache.get(issues(), compute)]);
    expect(state.runs).toBe(1);
  });

  it('keeps one answer per caller, permission and URL', async () => {
    const cache = new AnswerCache(10_000);
    const { state, compute } = route();
    await cache.get(issues(alice), compute);
    await cache.get(issues(bob), compute);
    await cache.get({ ...issues(alice), permission: 'read' }, compute);
    await cache.get(issues(alice, '/api/v1/repos/alice/app/issues?page=2'), compute);
    expect(state.runs).toBe(4);
  });

  it('forgets a repository\'s answers when told of a change there, and only that repository\'s', async () => {
    const cache = new AnswerCache(10_000);
    const { state, compute } = route();
    const other = { ...issues(), repositoryId: '2', name: 'other' };
    await cache.get(issues(), compute);
    await cache.get(other, compute);
    state.body = '[{"title":"new"}]';
    cache.dropRepositories(['1']);
    expect(text(await cache.get(issues(), compute))).toBe('[{"title":"new"}]');
    expect(text(await cache.get(other, compute))).toBe('[]');
    cache.dropRepositories(['*']);
    expect(text(await cache.get(other, compute))).toBe('[{"title":"new"}]');
  });

  it('does not keep an answer computed before a change it heard of while computing', async () => {
    const cache = new AnswerCache(10_000);
    let release!: () => void;
    const slow = async (): Promise<Answer> => {
      await new Promise<void>((resolve) => (release = resolve));
      return { status: 200, headers: {}, body: Buffer.from('old') };
    };
    const pending = cache.get(issues(), slow);
    cache.dropRepositories(['1']);
    // A read after the change does not join the fill that started before it.
    const { state, compute } = route('new');
    expect(text(await cache.get(issues(), compute))).toBe('new');
    release();
    expect(text(await pending)).toBe('old');
    expect(text(await cache.get(issues(), compute))).toBe('new');
    expect(state.runs).toBe(1);
  });

  it('forgets a repository\'s answers when a write to it through this gateway ends', async () => {
    const cache = new AnswerCache(10_000);
    const { state, compute } = route('before');
    await cache.get(issues(), compute);
    cache.writeStarted(scope);
    // Reads that overlap the write may still be answered from before it.
    expect(text(await cache.get(issues(), compute))).toBe('before');
    expect(state.runs).toBe(1);
    state.body = 'after';
    cache.writeEnded(scope);
    // The writer's next read, and everyone's, shows the write.
    expect(text(await cache.get(issues(), compute))).toBe('after');
    expect(text(await cache.get(issues(), compute))).toBe('after');
    expect(state.runs).toBe(2);
  });

  it('keeps nothing a read computed during a write but finished after it', async () => {
    const cache = new AnswerCache(10_000);
    const { state, compute } = route('before');
    cache.writeStarted(scope);
    let release!: () => void;
    const slow = cache.get(issues(), async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return compute();
    });
    state.body = 'after';
    cache.writeEnded(scope);
    release();
    await slow;
    expect(text(await cache.get(issues(), compute))).toBe('after');
  });

  it('keeps nothing when its TTL is 0, and nothing larger than an answer may be', async () => {
    const off = new AnswerCache(0);
    const { state, compute } = route();
    await off.get(issues(), compute);
    await off.get(issues(), compute);
    expect(state.runs).toBe(2);
    const small = new AnswerCache(10_000, 1024 * 1024, 1);
    await small.get(issues(), compute);
    await small.get(issues(), compute);
    expect(state.runs).toBe(4);
    expect(small.stats().answers).toBe(0);
  });

  it('lets the least recently used answers go when full', async () => {
    const keyLength = AnswerCache.keyOf(issues(alice, '/issues?page=1')).length;
    const cache = new AnswerCache(10_000, 3 * (512 + 2 + keyLength));
    const { compute } = route();
    for (const page of [1, 2, 3, 4]) await cache.get(issues(alice, `/issues?page=${page}`), compute);
    expect(cache.stats().answers).toBe(3);
  });

  it('counts each answer\'s URL against its memory, so long URLs cannot hold more than it allows', async () => {
    const cache = new AnswerCache(10_000, 64 * 1024);
    const { compute } = route();
    for (let i = 0; i < 100; i++) await cache.get(issues(alice, `/issues?q=${String(i).padStart(8_000, 'x')}`), compute);
    expect(cache.stats().bytes).toBeLessThanOrEqual(64 * 1024);
    expect(cache.stats().answers).toBeLessThan(8);
  });
});
