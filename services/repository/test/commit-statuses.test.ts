// Commit statuses over fakes: how states combine, what branch protection's required
// contexts demand, who may set a status and what a new status looks like.
import { describe, expect, it } from '@jest/globals';
import { DomainError, type Caller } from '@anvil/kit';
import {
  combineStates, combinedStatus, createCommitStatus, listCommitStatuses, requiredContextsState, requiredStatusesMet,
  type CommitStatus, type CommitStatusDeps, type CommitStatusEvent, type CommitStatusState, type CommitStatusStore,
} from '../src/domain/commit-statuses.js';
import type { Owner } from '../src/domain/owner.js';
import type { Repository } from '../src/domain/repository.js';
import type { RepositoryStore } from '../src/domain/store.js';

const SHA = 'c'.repeat(40);
const owner: Owner = { id: 1, login: 'ada', type: 'user', isAdmin: false, restricted: false, visibility: 'public', fullName: '', email: 'ada@example.com', maxRepoCreation: -1 };
const caller = (userId: number, login: string): Caller => ({ userId, login, isAdmin: false, restricted: false, scopes: [] });
const ADA = caller(1, 'ada');

const status = (context: string, state: CommitStatusState): Pick<CommitStatus, 'context' | 'state'> => ({ context, state });

function fakes(repo: Partial<Repository> = {}) {
  const repository = { id: 7, owner_id: 1, owner_login: 'ada', name: 'lib', private: false, archived: false, empty: false, default_branch: 'main', ...repo } as Repository;
  const rows: CommitStatus[] = [];
  const events: CommitStatusEvent[] = [];
  const store = {
    findByNameForViewer: async (o: string, n: string) => (o === 'ada' && n === 'lib' ? { repository, owner, teams: [] } : undefined),
    findOwnerById: async (id: number) => (id === 1 ? owner : undefined),
  } as unknown as RepositoryStore;
  const statuses: CommitStatusStore = {
    async create(input, eventOf) {
      const index = rows.filter((r) => r.sha === input.sha).length + 1;
      const row = { ...input, index, created_at: new Date(0), updated_at: new Date(0) };
      rows.push(row);
      events.push(eventOf(row));
      return row;
    },
    async list(_id, sha, query) {
      const found = rows.filter((r) => r.sha === sha && (!query.state || r.state === query.state)).reverse();
      return { items: found.slice(query.offset, query.offset + query.limit), total: found.length };
    },
    async latestPerContext(_id, sha) {
      const latest = new Map<string, CommitStatus>();
      for (const r of rows.filter((x) => x.sha === sha)) {
        latest.delete(r.context); // re-inserted last: the Map's order is "least recently set first"
        latest.set(r.context, r);
      }
      return [...latest.values()].reverse();
    },
  };
  const deps: CommitStatusDeps = {
    store, statuses,
    git: {
      resolveCommit: async (_o, _n, rev) => (rev === 'main' || rev === SHA || rev === SHA.slice(0, 7) ? SHA : undefined),
      readCommit: async (_o, _n, sha) => ({ id: sha, message: 'Initial\n', authorName: 'Ada', authorEmail: 'ada@example.com', authorTime: 0, committerName: 'Ada', committerEmail: 'ada@example.com', committerTime: 0, added: [], removed: [], modified: [] }),
    },
  };
  const access = { repository, owner, permission: 'owner' as const };
  return { deps, access, rows, events };
}

const input = (state: string, context = '', sha = SHA) => ({ sha, state, targetUrl: '', description: '', context });

describe('combined state', () => {
  it('is pending with no statuses, or while any context is pending', () => {
    expect(combineStates([])).toBe('pending');
    expect(combineStates(['pending', 'success'])).toBe('pending');
  });

  it('is failure as soon as any context failed or errored', () => {
    expect(combineStates(['success', 'failure', 'pending'])).toBe('failure');
    expect(combineStates(['error', 'success'])).toBe('failure');
  });

  it('is success when every context succeeded, warnings and skips counting as success', () => {
    expect(combineStates(['success', 'warning', 'skipped'])).toBe('success');
  });
});

describe('required status checks', () => {
  const latest = [status('ci/build', 'success'), status('ci/test', 'success'), status('lint', 'failure')];

  it('pass when every required context succeeded', async () => {
    expect(requiredContextsState(latest, ['ci/build', 'ci/test'])).toBe('success');
  });

  it('match required contexts as globs, `*` crossing slashes, case-sensitively', () => {
    expect(requiredContextsState(latest, ['ci*'])).toBe('success');
    expect(requiredContextsState(latest, ['CI/build'])).toBe('pending');
    expect(requiredContextsState(latest, ['ci/{build,test}', 'l?nt'])).toBe('failure');
  });

  it('stay pending while a required context has no status yet', () => {
    expect(requiredContextsState(latest, ['ci/build', 'deploy'])).toBe('pending');
  });

  it('without named contexts demand that every reported context succeeded', () => {
    expect(requiredContextsState(latest, [])).toBe('failure');
    expect(requiredContextsState([status('ci', 'success')], [])).toBe('success');
    expect(requiredContextsState([], ['ci'])).toBe('pending');
  });

  it('are read from the latest status of each context of the commit', async () => {
    const { deps, access } = fakes();
    await createCommitStatus(deps, access, input('failure', 'ci'), ADA);
    expect(await requiredStatusesMet(deps.statuses, 7, SHA, ['ci'])).toBe(false);
    await createCommitStatus(deps, access, input('success', 'ci'), ADA);
    expect(await requiredStatusesMet(deps.statuses, 7, SHA, ['ci'])).toBe(true);
  });
});

describe('setting a commit status', () => {
  it('stores it under the full sha of the named commit, context "default" when none is given, and announces it', async () => {
    const { deps, access, events } = fakes();
    const { status: created, repository } = await createCommitStatus(deps, access, { sha: 'main', state: 'success', targetUrl: ' https://ci.example/1 ', description: ' ok ', context: '' }, ADA);
    expect(created).toMatchObject({ sha: SHA, index: 1, state: 'success', context: 'default', targetUrl: 'https://ci.example/1', description: 'ok', creatorId: 1 });
    expect(created.creator?.login).toBe('ada');
    expect(repository).toEqual({ owner: 'ada', name: 'lib' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ status: { sha: SHA, context: 'default' }, creator: { id: 1, login: 'ada' }, commit: { id: SHA } });
  });

  it('refuses an unknown state and a commit that does not exist', async () => {
    const { deps, access, rows } = fakes();
    await expect(createCommitStatus(deps, access, input('done'), ADA)).rejects.toMatchObject({ kind: 'invalid' });
    await expect(createCommitStatus(deps, access, input('success', 'ci', 'f'.repeat(40)), ADA)).rejects.toMatchObject({ kind: 'not_found', reason: 'commit_not_found' });
    expect(rows).toHaveLength(0);
  });

  it('is not_found in an empty repository', async () => {
    const { deps, access } = fakes({ empty: true });
    await expect(createCommitStatus(deps, access, input('success'), ADA)).rejects.toBeInstanceOf(DomainError);
  });
});

describe('reading commit statuses', () => {
  it('lists nothing for an unknown sha but refuses an unknown ref', async () => {
    const { deps, access } = fakes();
    await createCommitStatus(deps, access, input('success', 'ci'), ADA);
    const page = { sort: '', state: '', offset: 0, limit: 30 };
    expect((await listCommitStatuses(deps, access, { ...page, revision: 'nope', byRef: false })).total).toBe(0);
    await expect(listCommitStatuses(deps, access, { ...page, revision: 'nope', byRef: true })).rejects.toMatchObject({ kind: 'not_found' });
    expect((await listCommitStatuses(deps, access, { ...page, revision: SHA.slice(0, 7), byRef: true })).total).toBe(1);
  });

  it('combines the latest status of each context, paging the statuses but not the state', async () => {
    const { deps, access } = fakes();
    await createCommitStatus(deps, access, input('failure', 'a'), ADA);
    await createCommitStatus(deps, access, input('success', 'b'), ADA);
    await createCommitStatus(deps, access, input('pending', 'a'), ADA);
    const combined = await combinedStatus(deps, access, 'main', { offset: 0, limit: 1 });
    expect(combined).toMatchObject({ state: 'pending', sha: SHA, total: 2 });
    expect(combined.statuses.map((s) => [s.context, s.state])).toEqual([['a', 'pending']]);
  });
});
