import { describe, expect, it } from '@jest/globals';
import { ANONYMOUS, DomainError, type Caller } from '@anvil/kit';
import { readFileSync } from 'node:fs';
import { FIGURES, isWrite, RepositoryAccessCache, trackWrites, writeScopeOf, type ResolvedRepository } from '../src/caches/repository-access.js';

const alice: Caller = { userId: 5, login: 'alice', isAdmin: false, restricted: false, scopes: ['all'] };
const access = (permission: string): ResolvedRepository => ({ repository: { id: 1, name: 'app' } as ResolvedRepository['repository'], permission, owner: null as unknown as ResolvedRepository['owner'] });
const key = RepositoryAccessCache.keyOf(alice, 'Alice', 'App');

/** A lookup that counts its calls and answers `permission` (read at call time). */
function service(initial = 'write') {
  const state = { calls: 0, permission: initial };
  const load = async () => (state.calls++, access(state.permission));
  return { state, load };
}

describe('remembered repositories in the gateway', () => {
  it('resolves a repository read again within its TTL once, whatever the case of its name', async () => {
    const cache = new RepositoryAccessCache(10_000);
    const { state, load } = service();
    await cache.get(key, load);
    await cache.get(RepositoryAccessCache.keyOf(alice, 'alice', 'app'), load);
    expect(state.calls).toBe(1);
  });

  it('asks once for concurrent reads of one repository', async () => {
    const cache = new RepositoryAccessCache(10_000);
    const { state, load } = service();
    await Promise.all([cache.get(key, load), cache.get(key, load), cache.get(key, load)]);
    expect(state.calls).toBe(1);
  });

  it('never shares an answer between callers the repository service could answer differently', () => {
    const keys = new Set([
      key,
      RepositoryAccessCache.keyOf(ANONYMOUS, 'alice', 'app'),
      RepositoryAccessCache.keyOf({ ...alice, isAdmin: true }, 'alice', 'app'),
      RepositoryAccessCache.keyOf({ ...alice, restricted: true }, 'alice', 'app'),
      RepositoryAccessCache.keyOf({ ...alice, scopes: ['public-only', 'read:repository'] }, 'alice', 'app'),
      RepositoryAccessCache.keyOf({ ...alice, userId: 6 }, 'alice', 'app'),
      RepositoryAccessCache.keyOf(alice, 'alice', 'app2'),
      RepositoryAccessCache.keyOf(alice, 'alice2', 'app'),
    ]);
    expect(keys.size).toBe(8);
  });

  it('shows a revoked permission on the next read after the repository service hints at a change', async () => {
    const cache = new RepositoryAccessCache(10_000);
    const { state, load } = service('write');
    expect((await cache.get(key, load)).permission).toBe('write');
    state.permission = 'read';
    cache.dropAll();
    expect((await cache.get(key, load)).permission).toBe('read');
  });

  it('a hint naming another repository keeps this one remembered; one naming it shows the change', async () => {
    const cache = new RepositoryAccessCache(10_000);
    const { state, load } = service('write');
    await cache.get(key, load);
    state.permission = 'read';
    cache.dropRepositoryIds(['2']);
    expect((await cache.get(key, load)).permission).toBe('write');
    cache.dropRepositoryIds(['3', '1']);
    expect((await cache.get(key, load)).permission).toBe('read');
    state.permission = 'none';
    cache.dropRepositoryIds(['*']);
    expect((await cache.get(key, load)).permission).toBe('none');
    expect(state.calls).toBe(3);
  });

  it('does not keep an answer that was on its way when a change was hinted', async () => {
    const cache = new RepositoryAccessCache(10_000);
    let release!: () => void;
    const slow = () => new Promise<ResolvedRepository>((resolve) => (release = () => resolve(access('write'))));
    const pending = cache.get(key, slow);
    cache.dropAll();
    release();
    expect((await pending).permission).toBe('write');
    const { state, load } = service('none');
    expect((await cache.get(key, load)).permission).toBe('none');
    expect(state.calls).toBe(1);
  });

  it('keeps a lookup that was on its way when another repository changed', async () => {
    const cache = new RepositoryAccessCache(10_000);
    let release!: () => void;
    const slow = () => new Promise<ResolvedRepository>((resolve) => (release = () => resolve(access('write'))));
    const pending = cache.get(key, slow);
    cache.dropRepositoryIds(['2']);
    release();
    await pending;
    const { state, load } = service('none');
    expect((await cache.get(key, load)).permission).toBe('write');
    expect(state.calls).toBe(0);
  });

  it('a read that joined a lookup begun before its repository changed asks again instead of sharing it', async () => {
    const cache = new RepositoryAccessCache(10_000);
    let release!: () => void;
    const first = cache.get(key, () => new Promise<ResolvedRepository>((resolve) => (release = () => resolve(access('write')))));
    const { state, load } = service('read');
    const joined = cache.get(key, load);
    cache.dropRepositoryIds(['1']);
    release();
    // The first lookup overlapped the change and may show either side of it; the one that
    // joined it is shown the change, and what it asked is what is remembered.
    expect((await first).permission).toBe('write');
    expect((await joined).permission).toBe('read');
    expect((await cache.get(key, load)).permission).toBe('read');
    expect(state.calls).toBe(1);
  });

  it('the reads that joined a lookup begun before their repository changed share one new lookup', async () => {
    const cache = new RepositoryAccessCache(10_000);
    let release!: () => void;
    const first = cache.get(key, () => new Promise<ResolvedRepository>((resolve) => (release = () => resolve(access('write')))));
    const { state, load } = service('read');
    const joined = [cache.get(key, load), cache.get(key, load), cache.get(key, load)];
    cache.dropRepositoryIds(['1']);
    release();
    await first;
    expect((await Promise.all(joined)).map((r) => r.permission)).toEqual(['read', 'read', 'read']);
    expect(state.calls).toBe(1);
  });

  it('a write that may change anything drops every repository when it starts and when it ends', async () => {
    const cache = new RepositoryAccessCache(10_000);
    const { state, load } = service('write');
    await cache.get(key, load);
    cache.writeStarted(undefined);
    state.permission = 'admin';
    expect((await cache.get(key, load)).permission).toBe('admin');
    expect((await cache.get(key, load)).permission).toBe('admin');
    expect(state.calls).toBe(2);
    state.permission = 'read';
    cache.writeEnded(undefined);
    expect((await cache.get(key, load)).permission).toBe('read');
    expect((await cache.get(key, load)).permission).toBe('read');
    expect(state.calls).toBe(3);
  });

  it('a write to one repository drops that repository\'s answers only, when it starts and when it ends', async () => {
    const cache = new RepositoryAccessCache(10_000);
    const other = RepositoryAccessCache.keyOf(alice, 'alice', 'other');
    const { state, load } = service('write');
    await cache.get(key, load);
    await cache.get(other, load);
    expect(state.calls).toBe(2);
    const scope = writeScopeOf('/api/v1/repos/ALICE/app/contents/README.md');
    state.permission = 'admin';
    cache.writeStarted(scope);
    await cache.get(other, load);
    expect(state.calls).toBe(2);
    expect((await cache.get(key, load)).permission).toBe('admin');
    expect((await cache.get(key, load)).permission).toBe('admin');
    expect(state.calls).toBe(3);
    state.permission = 'read';
    cache.writeEnded(scope);
    expect((await cache.get(key, load)).permission).toBe('read');
    expect((await cache.get(key, load)).permission).toBe('read');
    await cache.get(other, load);
    expect(state.calls).toBe(4);
  });

  it('keeps nothing a lookup began before a write\'s end', async () => {
    const cache = new RepositoryAccessCache(10_000);
    const scope = writeScopeOf('/api/v1/repos/alice/app/collaborators/c');
    const { state, load } = service('write');
    cache.writeStarted(scope);
    let release!: () => void;
    const slow = cache.get(key, async () => {
      await new Promise<void>((resolve) => (release = resolve));
      return load();
    });
    state.permission = 'read';
    cache.writeEnded(scope);
    release();
    await slow;
    expect((await cache.get(key, load)).permission).toBe('read');
  });

  it('does not keep an answer that was on its way when a write to its repository began', async () => {
    const cache = new RepositoryAccessCache(10_000);
    let release!: () => void;
    const slow = () => new Promise<ResolvedRepository>((resolve) => (release = () => resolve(access('write'))));
    const pending = cache.get(key, slow);
    const scope = writeScopeOf('/alice/app.git/git-receive-pack');
    cache.writeStarted(scope);
    cache.writeEnded(scope);
    release();
    await pending;
    const { state, load } = service('none');
    expect((await cache.get(key, load)).permission).toBe('none');
    expect(state.calls).toBe(1);
  });

  it('scopes a write to the repository its path names, and any other write to everything', () => {
    const app = RepositoryAccessCache.repositoryOf('alice', 'app');
    expect(writeScopeOf('/api/v1/repos/alice/app/topics')).toBe(app);
    expect(writeScopeOf('/api/v1/repos/Alice/App/collaborators/bob')).toBe(app);
    expect(writeScopeOf('/alice/app.git/git-receive-pack')).toBe(app);
    expect(writeScopeOf('/alice/app/git-receive-pack')).toBe(app);
    expect(writeScopeOf('/api/v1/repos/migrate')).toBeUndefined();
    expect(writeScopeOf('/api/v1/orgs/acme/teams')).toBeUndefined();
    expect(writeScopeOf('/api/v1/teams/1/members/bob')).toBeUndefined();
    expect(writeScopeOf('/api/v1/admin/users/bob')).toBeUndefined();
    expect(writeScopeOf('/api/v1/repos/al%zzice/app')).toBeUndefined();
  });

  it('expires entries after the TTL, and remembers nothing with a TTL of 0', async () => {
    const short = new RepositoryAccessCache(5);
    const first = service();
    await short.get(key, first.load);
    await new Promise((resolve) => setTimeout(resolve, 10));
    await short.get(key, first.load);
    expect(first.state.calls).toBe(2);

    const off = new RepositoryAccessCache(0);
    const second = service();
    await off.get(key, second.load);
    await off.get(key, second.load);
    expect(second.state.calls).toBe(2);
  });

  it('does not remember a failed lookup (a 404 is asked again)', async () => {
    const cache = new RepositoryAccessCache(10_000);
    await expect(cache.get(key, async () => { throw new Error('not found'); })).rejects.toThrow('not found');
    await expect(cache.get(key, async () => access('read'))).resolves.toMatchObject({ permission: 'read' });
  });

  it('counts every request that may change state as a write, and a clone\'s negotiation as a read', () => {
    expect(isWrite('GET', '/api/v1/repos/a/b')).toBe(false);
    expect(isWrite('HEAD', '/api/v1/repos/a/b')).toBe(false);
    expect(isWrite('POST', '/a/b.git/git-upload-pack')).toBe(false);
    expect(isWrite('POST', '/a/b.git/git-receive-pack')).toBe(true);
    expect(isWrite('PATCH', '/api/v1/repos/a/b')).toBe(true);
    expect(isWrite('PUT', '/api/v1/repos/a/b/collaborators/c')).toBe(true);
    expect(isWrite('DELETE', '/api/v1/teams/1/members/c')).toBe(true);
    expect(isWrite('POST', '/api/v1/user/repos')).toBe(true);
  });

  it('forgets a repository when a write to it arrives and again when its response is done', async () => {
    const cache = new RepositoryAccessCache(10_000);
    const { state, load } = service('write');
    await cache.get(key, load);
    let close!: () => void;
    const res = { once: (_event: 'close', listener: () => void) => (close = listener) };
    trackWrites(cache)({ method: 'DELETE', path: '/api/v1/repos/alice/app/collaborators/c' }, res, () => undefined);
    await cache.get(key, load);
    await cache.get(key, load);
    expect(state.calls).toBe(2);
    state.permission = 'read';
    close();
    expect((await cache.get(key, load)).permission).toBe('read');
    expect((await cache.get(key, load)).permission).toBe('read');
    expect(state.calls).toBe(3);
  });

  it('keeps a repository remembered when a write its service resolves in its turn arrives, and forgets it when its response is done', async () => {
    const cache = new RepositoryAccessCache(10_000);
    const { state, load } = service('write');
    await cache.get(key, load);
    let close!: () => void;
    const res = { locals: { resolvedInTurn: true }, once: (_event: 'close', listener: () => void) => (close = listener) };
    trackWrites(cache)({ method: 'POST', path: '/api/v1/repos/alice/app/contents/a.txt' }, res, () => undefined);
    // The write's guards answer from what is remembered: the service decides afresh in its turn.
    await cache.get(key, load);
    expect(state.calls).toBe(1);
    state.permission = 'read';
    close();
    expect((await cache.get(key, load)).permission).toBe('read');
    expect(state.calls).toBe(2);
  });

  it('keeps it at the end too when the route found the repository with commits, and forgets it when the hint of its row arrives', async () => {
    const cache = new RepositoryAccessCache(10_000);
    const { state, load } = service('write');
    const resolved = await cache.get(key, load);
    let close!: () => void;
    const res = { locals: { resolvedInTurn: true, resolutionKept: true }, once: (_event: 'close', listener: () => void) => (close = listener) };
    trackWrites(cache)({ method: 'PUT', path: '/api/v1/repos/alice/app/contents/a.txt' }, res, () => undefined);
    state.permission = 'read';
    close();
    expect(await cache.get(key, load)).toBe(resolved);
    cache.dropRepositoryIds([String(resolved.repository!.id)]);
    expect((await cache.get(key, load)).permission).toBe('read');
    expect(state.calls).toBe(2);
  });

  it('after a push moved only the repository\'s figures, a git read\'s guards keep it and its JSON is looked up again', async () => {
    const cache = new RepositoryAccessCache(10_000);
    let size = 10;
    let calls = 0;
    const load = async (): Promise<ResolvedRepository> => {
      calls++;
      return { ...access('write'), repository: { id: 1, name: 'app', size } as ResolvedRepository['repository'] };
    };
    const first = await cache.get(key, load);
    size = 20;
    cache.dropRepositoryIds(['~1']);
    // A contents read or branch list (figures not shown) passes on what it had.
    expect(await cache.get(key, load, false)).toBe(first);
    expect(cache.peek(key, false)).toBe(first);
    expect(calls).toBe(1);
    // The repository's JSON shows the new size, and is then remembered (the guards keep theirs).
    expect(cache.peek(key)).toBeUndefined();
    const fresh = await cache.get(key, load);
    expect(fresh.repository!.size).toBe(20);
    expect(await cache.get(key, load)).toBe(fresh);
    expect(await cache.get(key, load, false)).toBe(first);
    expect(calls).toBe(2);
  });

  it('after the repository\'s JSON is looked up again, a git read\'s guards still get the very resolution they had, unless more than the figures changed', async () => {
    const cache = new RepositoryAccessCache(10_000);
    let size = 10;
    let permission = 'write';
    const load = async (): Promise<ResolvedRepository> => ({ ...access(permission), repository: { id: 1, name: 'app', size } as ResolvedRepository['repository'] });
    const first = await cache.get(key, load, false);
    size = 20;
    cache.dropRepositoryIds(['~1']);
    const json = await cache.get(key, load);
    expect(json.repository!.size).toBe(20);
    // The answer shortcuts of the git reads rest on that object: it stays the guards'.
    expect(await cache.get(key, load, false)).toBe(first);
    expect(cache.peek(key, false)).toBe(first);
    expect(cache.peek(key)).toBe(json);
    // A change beyond the figures that arrives with them (a lookup after a plain hint) is the guards' too.
    size = 30;
    permission = 'read';
    cache.dropRepositoryIds(['~1']);
    const changed = await cache.get(key, load);
    expect(await cache.get(key, load, false)).toBe(changed);
  });

  it('names as figures exactly the columns the repository service\'s trigger marks with ~', () => {
    const sql = readFileSync(new URL('../../services/repository/prisma/migrations/20261129230000_access_change_marks_figures/migration.sql', import.meta.url), 'utf8');
    const listed = /figures CONSTANT text\[\] := ARRAY\[([^\]]*)\]/.exec(sql)![1]!.match(/'([a-z_]+)'/g)!.map((quoted) => quoted.slice(1, -1));
    expect(new Set(listed)).toEqual(FIGURES);
  });

  it('a figures-only hint leaves other repositories\' JSON alone, and a plain hint for the same repository still forgets it for every read', async () => {
    const cache = new RepositoryAccessCache(10_000);
    const { state, load } = service('write');
    await cache.get(key, load);
    cache.dropRepositoryIds(['~2']);
    await cache.get(key, load);
    expect(state.calls).toBe(1);
    state.permission = 'read';
    // One burst of commits may name both: the plain change wins.
    cache.dropRepositoryIds(['~1', '1']);
    expect((await cache.get(key, load, false)).permission).toBe('read');
    expect(state.calls).toBe(2);
  });

  it('a lookup on its way when the figures changed serves the guards but not the repository\'s JSON', async () => {
    const cache = new RepositoryAccessCache(10_000);
    let release!: () => void;
    let calls = 0;
    const load = async (): Promise<ResolvedRepository> => {
      calls++;
      if (calls === 1) await new Promise<void>((resolve) => (release = resolve));
      return access('write');
    };
    const early = cache.get(key, load, false);
    const joinedForGuards = cache.get(key, load, false);
    const joinedForJson = cache.get(key, load);
    await new Promise((resolve) => setImmediate(resolve));
    cache.dropRepositoryIds(['~1']);
    release();
    const resolved = await early;
    expect(await joinedForGuards).toBe(resolved);
    expect(await joinedForJson).not.toBe(resolved);
    expect(calls).toBe(2);
    // The first lookup was still kept for the guards, the second for both.
    expect(cache.peek(key)).toBe(await joinedForJson);
  });

  it('answers a stranger\'s probe of a hidden repository 404 again without asking, until a hint says a name may resolve', async () => {
    const cache = new RepositoryAccessCache(10_000);
    const stranger = RepositoryAccessCache.keyOf(ANONYMOUS, 'alice', 'secret');
    let calls = 0;
    let found = false;
    const load = async () => {
      calls++;
      if (!found) throw new DomainError('not_found', 'GetRepositoryByName', 'repo_not_found');
      return access('read');
    };
    await expect(cache.get(stranger, load)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(cache.get(stranger, load)).rejects.toMatchObject({ kind: 'not_found' });
    expect(calls).toBe(1);
    // Another repository's size moved (a push): that says nothing about names.
    cache.dropRepositoryIds(['7']);
    await expect(cache.get(stranger, load)).rejects.toMatchObject({ kind: 'not_found' });
    expect(calls).toBe(1);
    // The repository is made public: its id comes marked, and the remembered 404 cannot know its id.
    found = true;
    cache.dropRepositoryIds(['7', '+42']);
    expect((await cache.get(stranger, load)).permission).toBe('read');
    expect(calls).toBe(2);
  });

  it('never remembers a failure other than not found', async () => {
    const cache = new RepositoryAccessCache(10_000);
    let calls = 0;
    const load = async (): Promise<ResolvedRepository> => {
      calls++;
      throw new DomainError('unavailable', 'repository service unavailable');
    };
    await expect(cache.get(key, load)).rejects.toMatchObject({ kind: 'unavailable' });
    await expect(cache.get(key, load)).rejects.toMatchObject({ kind: 'unavailable' });
    expect(calls).toBe(2);
  });

  it('forgets every remembered 404 when this gateway forks a repository (a new name resolves)', async () => {
    const cache = new RepositoryAccessCache(10_000);
    const forkKey = RepositoryAccessCache.keyOf(alice, 'alice', 'fork-of-app');
    let forked = false;
    let calls = 0;
    const load = async () => {
      calls++;
      if (!forked) throw new DomainError('not_found', 'GetRepositoryByName', 'repo_not_found');
      return access('owner');
    };
    await expect(cache.get(forkKey, load)).rejects.toMatchObject({ kind: 'not_found' });
    const scope = writeScopeOf('/api/v1/repos/bob/app/forks');
    cache.writeStarted(scope);
    forked = true;
    cache.writeEnded(scope);
    expect((await cache.get(forkKey, load)).permission).toBe('owner');
    expect(calls).toBe(2);
  });

  it('counts a write that makes another name resolve (a fork, a rename, a transfer, a generation) as a write to anything', () => {
    for (const path of ['/api/v1/repos/a/b/forks', '/api/v1/repos/a/b', '/api/v1/repos/a/b/transfer', '/api/v1/repos/a/b/transfer/accept', '/api/v1/repos/a/b/generate']) {
      expect(writeScopeOf(path)).toBeUndefined();
    }
    expect(writeScopeOf('/api/v1/repos/a/b/contents/forks')).toBe(RepositoryAccessCache.repositoryOf('a', 'b'));
    expect(writeScopeOf('/api/v1/repos/a/b/collaborators/c')).toBe(RepositoryAccessCache.repositoryOf('a', 'b'));
  });
});
