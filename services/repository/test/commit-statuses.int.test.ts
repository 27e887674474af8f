// Commit statuses over real PostgreSQL and real git: indexes stay distinct under concurrent
// writers, each write carries its `status` event, "latest per context" and the sort orders
// read as Gitea's, and a deleted repository's statuses go with it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeEvent } from '@anvil/proto';
import { createCommitStatus, listCommitStatuses, requiredStatusesMet, type CommitStatusDeps } from '../src/domain/commit-statuses.js';
import { createRepository, resolveRepository, type RepositoryDeps } from '../src/domain/repositories.js';
import { commitStatusCleanupConsumer } from '../src/events/commit-status-cleanup.js';
import { commitStatusGit } from '../src/git/commit-status-git.js';
import { commitInitialFiles } from '../src/git/refs.js';
import type { RepositoryStorage } from '../src/git/storage.js';
import { commitStatusStore } from '../src/store/commit-statuses.js';
import type { RepositoryDb } from '../src/store/db.js';
import { caller, repositoryTestbed, type RepositoryTestbed } from './support/testbed.js';

let tb: RepositoryTestbed;
let db: RepositoryDb;
let storage: RepositoryStorage;
let repos: RepositoryDeps;
let deps: CommitStatusDeps;
let repositoryId: number;
let sha: string;
const ada = caller(1, 'ada');
const page = { sort: '', state: '', offset: 0, limit: 100 };

beforeAll(async () => {
  tb = await repositoryTestbed('status');
  ({ db, storage, deps: repos } = tb);
  deps = { store: repos.store, statuses: commitStatusStore(db), git: commitStatusGit(storage) };
  await tb.owner(1, 'ada');
  const created = await createRepository(repos, { owner_id: 1, name: 'ci', description: '', private: false, default_branch: '', auto_init: false, readme: '', template: false, object_format_name: '' }, ada);
  repositoryId = created.repository.id;
  sha = await commitInitialFiles(storage.pathOf('ada', 'ci'), 'main', { 'README.md': '# ci\n' }, 'Initial commit\n', { name: 'Ada', email: 'ada@example.com' });
  await db.repository.update({ where: { id: BigInt(repositoryId) }, data: { empty: false } });
}, 30_000);

afterAll(() => tb?.close());

/** The repository as the gateway would send it for Ada (her own: owner). */
const ci = () => resolveRepository(deps.store, 'ada', 'ci', ada);

const set = async (state: string, context: string, revision = sha) =>
  createCommitStatus(deps, await ci(), { sha: revision, state, context, targetUrl: '', description: '' }, ada);

describe('commit statuses in PostgreSQL', () => {
  it('give 50 concurrent statuses on one commit 50 distinct indexes, each with its event', async () => {
    const before = await db.outboxEvent.count({ where: { subject: 'repository.status' } });
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => set('pending', `load/${i % 5}`)));
    const indexes = results.map((r) => r.status.index).sort((a, b) => a - b);
    expect(indexes).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(await db.outboxEvent.count({ where: { subject: 'repository.status' } })).toBe(before + 50);

    const event = await db.outboxEvent.findFirst({ where: { subject: 'repository.status' }, orderBy: { seq: 'desc' } });
    expect(decodeEvent(event!.type, event!.payload)).toMatchObject({
      sha, state: 'pending', creator: { id: 1, login: 'ada' }, repository: { id: repositoryId },
      commit: { id: sha, message: 'Initial commit\n', author: { name: 'Ada', email: 'ada@example.com' } },
    });
  });

  it('read the latest status of each context and sort as Gitea names its orders', async () => {
    // Set by branch name, stored under the commit's full sha.
    expect((await set('failure', 'unit', 'main')).status.sha).toBe(sha);
    await set('success', 'unit');
    await set('success', 'lint');
    const latest = await deps.statuses.latestPerContext(repositoryId, sha);
    expect(latest.slice(0, 2).map((s) => [s.context, s.state])).toEqual([['lint', 'success'], ['unit', 'success']]);
    expect(latest.map((s) => s.context).sort()).toEqual(['lint', 'load/0', 'load/1', 'load/2', 'load/3', 'load/4', 'unit']);
    expect(latest[0].creator?.login).toBe('ada');

    expect(await requiredStatusesMet(deps.statuses, repositoryId, sha, ['unit', 'lint'])).toBe(true);
    expect(await requiredStatusesMet(deps.statuses, repositoryId, sha, ['load/*'])).toBe(false);

    const newest = await listCommitStatuses(deps, await ci(), { ...page, revision: sha, byRef: false, limit: 3 });
    expect(newest.total).toBe(53);
    expect(newest.items.map((s) => s.index)).toEqual([53, 52, 51]);
    // Gitea's "leastindex" is index descending and "highestindex" ascending.
    expect((await listCommitStatuses(deps, await ci(), { ...page, revision: sha, byRef: false, sort: 'highestindex', limit: 2 })).items.map((s) => s.index)).toEqual([1, 2]);
    expect((await listCommitStatuses(deps, await ci(), { ...page, revision: sha, byRef: false, sort: 'leastindex', limit: 2 })).items.map((s) => s.index)).toEqual([53, 52]);
    const failures = await listCommitStatuses(deps, await ci(), { ...page, revision: 'main', byRef: true, state: 'failure' });
    expect(failures.items.map((s) => [s.context, s.index])).toEqual([['unit', 51]]);
  });

  it('go with their repository when it is deleted', async () => {
    const consumer = commitStatusCleanupConsumer();
    await db.$transaction((tx) => consumer.handle({ id: 'e1', subject: 'repository.repo.deleted', type: '', payload: { repository: { id: repositoryId } } } as never, tx));
    expect(await db.commitStatus.count({ where: { repository_id: BigInt(repositoryId) } })).toBe(0);
    expect(await db.commitStatusIndex.count({ where: { repository_id: BigInt(repositoryId) } })).toBe(0);
  });
});
