// Integration test: repository rules over real PostgreSQL and real git — creation with the
// outbox event in the same transaction, limits, concurrent creates, push recording, delete.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeEvent, type repository } from '@anvil/proto';
import { createRepository, deleteRepository, editRepository, type RepositoryDeps, resolveRepository } from '../src/domain/repositories.js';
import { commitInitialFiles, listRefs } from '../src/git/refs.js';
import { CREATING_MARKER, type RepositoryStorage } from '../src/git/storage.js';
import { recordPush } from '../src/git-http/push-recorder.js';
import type { RepositoryDb } from '../src/store/db.js';
import { caller, repositoryTestbed, type RepositoryTestbed } from './support/testbed.js';

let tb: RepositoryTestbed;
let db: RepositoryDb;
let storage: RepositoryStorage;
let deps: RepositoryDeps;
let owner: RepositoryTestbed['owner'];
let log: RepositoryTestbed['log'];

const input = (ownerId: number, name: string, extra: Partial<Parameters<typeof createRepository>[1]> = {}) => ({
  owner_id: ownerId, name, description: '', private: false, default_branch: '', auto_init: false, readme: '', template: false, object_format_name: '', ...extra,
});

async function events(subject: string) {
  const rows = await db.outboxEvent.findMany({ where: { subject }, orderBy: { seq: 'asc' } });
  return rows.map((r) => decodeEvent<any>(r.type, r.payload));
}

beforeAll(async () => {
  tb = await repositoryTestbed('repos');
  ({ db, storage, deps, owner, log } = tb);
}, 30_000);

afterAll(() => tb?.close(), 30_000);

describe('repositories over PostgreSQL and git', () => {
  it('creates the git directory, the row and repository.repo.created together', async () => {
    const alice = await owner(1, 'Alice');
    const access = await createRepository(deps, input(1, 'Demo', { auto_init: true, description: 'hi' }), alice);
    expect(access).toMatchObject({ permission: 'owner', repository: { name: 'Demo', empty: false, default_branch: 'main' } });
    expect(await listRefs(storage.pathOf('alice', 'demo'))).toEqual(new Map([['refs/heads/main', expect.any(String)]]));
    const [created] = await events('repository.repo.created');
    expect(created).toMatchObject({ repository: { id: access.repository.id, name: 'Demo', owner_login: 'Alice', empty: false }, actor_id: 1 });
  });

  it('creates sha256 repositories when asked, and refuses unknown object formats', async () => {
    const gina = await owner(7, 'gina');
    const access = await createRepository(deps, input(7, 'modern', { auto_init: true, object_format_name: 'sha256' }), gina);
    expect(access.repository.object_format_name).toBe('sha256');
    const [oid] = [...(await listRefs(storage.pathOf('gina', 'modern'))).values()];
    expect(oid).toMatch(/^[0-9a-f]{64}$/);
    await expect(createRepository(deps, input(7, 'odd', { object_format_name: 'md5' }), gina)).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('two concurrent creates of one name: one wins, the other is already_exists, no orphan directory', async () => {
    const bob = await owner(2, 'bob');
    const results = await Promise.allSettled([createRepository(deps, input(2, 'race'), bob), createRepository(deps, input(2, 'Race'), bob)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ kind: 'already_exists' });
    expect((await stat(storage.pathOf('bob', 'race'))).isDirectory()).toBe(true);
    expect(await db.repository.count({ where: { owner_id: 2n } })).toBe(1);
  });

  it('honours the user\'s own limit before the site\'s, and FORCE_PRIVATE', async () => {
    const carol = await owner(3, 'carol', 1);
    const forced = { ...deps, settings: { ...deps.settings, forcePrivate: true } };
    expect((await createRepository(forced, input(3, 'one'), carol)).repository.private).toBe(true);
    await expect(createRepository(deps, input(3, 'two'), carol)).rejects.toMatchObject({ reason: 'repo_limit_reached' });
    await expect(createRepository(deps, input(3, 'x'), caller(99, 'mallory'))).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it('records a first push: branch.created and push events, empty=false, default branch = the pushed branch', async () => {
    const dave = await owner(4, 'dave');
    const access = await createRepository(deps, input(4, 'pushed'), dave);
    const gitDir = storage.pathOf('dave', 'pushed');
    const before = await listRefs(gitDir);
    const sha = await commitInitialFiles(gitDir, 'dev', { 'a.txt': 'a\n' }, 'Add a\n', { name: 'Dave', email: 'dave@example.com' });
    const after = await listRefs(gitDir);
    await recordPush({ deps, log, gitDir, repositoryId: access.repository.id, pusher: { id: 4, login: 'dave' }, sizeOf: () => storage.sizeOf('dave', 'pushed') }, before, after);

    const row = await db.repository.findUniqueOrThrow({ where: { id: BigInt(access.repository.id) } });
    expect(row).toMatchObject({ empty: false, default_branch: 'dev' });
    const [branch] = await events('repository.branch.created');
    expect(branch).toMatchObject({ name: 'dev', ref: 'refs/heads/dev', sha, pusher: { id: 4, login: 'dave' } });
    const pushes = (await events('repository.push')) as repository.Push[];
    const push = pushes.find((p) => p.repository?.id === access.repository.id)!;
    expect(push).toMatchObject({ ref: 'refs/heads/dev', before: '0'.repeat(40), after: sha, total_commits: 1 });
    expect(push.commits[0]).toMatchObject({ id: sha, message: 'Add a\n', added: ['a.txt'], author: { name: 'Dave', email: 'dave@example.com' } });
  });

  it('renames the directory with the repository and deletes both', async () => {
    const erin = await owner(5, 'erin');
    await createRepository(deps, input(5, 'first', { auto_init: true }), erin);
    await editRepository(deps, await resolveRepository(deps.store, 'erin', 'first', erin), { name: 'second' }, erin);
    await expect(stat(storage.pathOf('erin', 'first'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await stat(storage.pathOf('erin', 'second'))).isDirectory()).toBe(true);
    // Others may read a public repository but not delete it.
    await deleteRepository(deps, await resolveRepository(deps.store, 'erin', 'second', erin), erin);
    await expect(stat(storage.pathOf('erin', 'second'))).rejects.toMatchObject({ code: 'ENOENT' });
    const deleted = await events('repository.repo.deleted');
    expect(deleted.at(-1)).toMatchObject({ repository: { name: 'second' }, actor_id: 5 });
  });
});

/**
 * `deps` in a process that dies at `at` during a create: nothing after that point runs,
 * not even the create's own clean-up (kill -9 leaves no chance for one).
 */
function crashingAt(at: 'after git init' | 'before the row commits'): RepositoryDeps {
  return {
    ...deps,
    git: {
      ...deps.git,
      async stage(branch, format) {
        const staged = await deps.git.stage(branch, format);
        return { ...staged, discard: async () => undefined };
      },
    },
    store: {
      ...deps.store,
      async transaction(work) {
        if (at === 'after git init') throw new Error('killed after git init');
        return deps.store.transaction(async (tx) => {
          await work(tx);
          throw new Error('killed before the commit');
        });
      },
    },
  };
}

describe('repository creation interrupted by a crash', () => {
  it.each(['after git init', 'before the row commits'] as const)('leaves nothing that blocks the name when killed %s: the retry succeeds', async (at) => {
    const erin = await owner(at === 'after git init' ? 120 : 121, at === 'after git init' ? 'crash-early' : 'crash-late');
    await expect(createRepository(crashingAt(at), input(erin.userId, 'retry', { auto_init: true }), erin)).rejects.toThrow(/killed/);
    expect(await deps.store.findByName(erin.login, 'retry')).toBeUndefined();
    // Killed before the commit, the directory had already reached the name, still marked.
    if (at === 'before the row commits') expect((await stat(join(storage.pathOf(erin.login, 'retry'), CREATING_MARKER))).isFile()).toBe(true);

    const access = await createRepository(deps, input(erin.userId, 'retry', { auto_init: true }), erin);
    expect(access.repository).toMatchObject({ name: 'retry', empty: false });
    const gitDir = storage.pathOf(erin.login, 'retry');
    expect((await listRefs(gitDir)).get('refs/heads/main')).toMatch(/^[0-9a-f]{40}$/);
    // Finished: no longer marked as a creation in progress.
    await expect(stat(join(gitDir, CREATING_MARKER))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('clears what interrupted creations left in the staging area at start', async () => {
    await deps.git.stage('main', 'sha1');
    expect((await readdir(join(storage.root, '.staging'))).length).toBeGreaterThan(0);
    await storage.clearStaging();
    await expect(stat(join(storage.root, '.staging'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('still refuses a name whose directory holds repository files without a row (left for adoption)', async () => {
    const gus = await owner(122, 'crash-admin');
    await storage.init('crash-admin', 'placed-by-admin', 'main');
    await expect(createRepository(deps, input(122, 'placed-by-admin'), gus)).rejects.toMatchObject({ kind: 'already_exists', reason: 'repo_exists' });
    expect((await stat(storage.pathOf('crash-admin', 'placed-by-admin'))).isDirectory()).toBe(true);
    expect(await deps.store.findByName('crash-admin', 'placed-by-admin')).toBeUndefined();
  });
});
