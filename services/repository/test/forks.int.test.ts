// Integration test: forks over real PostgreSQL and real git — the clone, the row and its
// events in one transaction, the parent's counter, visibility, a fork's branch fetched into
// its base for a pull request, the fork shown as a pull's head repository, and a fork's head
// branch updated from its base.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { decodeEvent } from '@anvil/proto';
import { SYSTEM, type Caller } from '@anvil/kit';
import { fetchForkHead, resolveForkPair } from '../src/domain/fork-heads.js';
import { forkRepository, listForks, pullHeadRepositories, withParents } from '../src/domain/forks.js';
import type { PullMergeDeps } from '../src/domain/pull-merge.js';
import { updateForkPullHead, type UpdateInput } from '../src/domain/pull-update.js';
import { signatureOf } from '../src/domain/signatures.js';
import { RepositoryWriteLock } from '../src/domain/write-lock.js';
import { branchGit } from '../src/git/branch-git.js';
import { pullGit } from '../src/git/pull-git-port.js';
import { branchProtectionStore } from '../src/store/branch-protections.js';
import { commitStatusStore } from '../src/store/commit-statuses.js';
import { createRepository, deleteRepository, getRepositoryById, resolveRepository, type RepositoryDeps } from '../src/domain/repositories.js';
import { forkHeadGit } from '../src/git/fork-git.js';
import { commitInitialFiles, listRefs } from '../src/git/refs.js';
import type { RepositoryStorage } from '../src/git/storage.js';
import type { RepositoryDb } from '../src/store/db.js';
import { caller, repositoryTestbed, type RepositoryTestbed } from './support/testbed.js';

// Forks clone and fetch real repositories: slow on a loaded machine.
jest.setTimeout(90_000);

let tb: RepositoryTestbed;
let db: RepositoryDb;
let storage: RepositoryStorage;
let deps: RepositoryDeps;
let owner: RepositoryTestbed['owner'];

const input = (ownerId: number, name: string, extra: Partial<Parameters<typeof createRepository>[1]> = {}) => ({
  owner_id: ownerId, name, description: 'the original', private: false, default_branch: '', auto_init: true, readme: 'Default', template: false, object_format_name: '', ...extra,
});

async function events(subject: string) {
  const rows = await db.outboxEvent.findMany({ where: { subject }, orderBy: { seq: 'asc' } });
  return rows.map((r) => decodeEvent<any>(r.type, r.payload));
}

/** Forks and lists as the service does: the repository forked resolved for the caller first. */
const forkAs = async (ownerLogin: string, name: string, options: Parameters<typeof forkRepository>[2], who: Caller) =>
  forkRepository(deps, await resolveRepository(deps.store, ownerLogin, name, who), options, who);
const forksOf = async (ownerLogin: string, name: string, who: Caller, offset: number, limit: number) =>
  listForks(deps.store, await resolveRepository(deps.store, ownerLogin, name, who), who, offset, limit);
const forksCount = async (id: number) => (await db.repository.findUniqueOrThrow({ where: { id: BigInt(id) } })).num_forks;

beforeAll(async () => {
  tb = await repositoryTestbed('forks');
  ({ db, storage, deps, owner } = tb);
}, 30_000);

afterAll(() => tb?.close(), 30_000);

describe('forks over PostgreSQL and git', () => {
  it('copies the branches and tags under the new owner, remembers the parent and counts the fork on it', async () => {
    const ada = await owner(1, 'ada');
    const bob = await owner(2, 'bob');
    const parent = await createRepository(deps, input(1, 'engine'), ada);
    const parentDir = storage.pathOf('ada', 'engine');
    await commitInitialFiles(parentDir, 'feature', { 'f.txt': 'f\n' }, 'Feature\n', { name: 'Ada', email: 'ada@example.com' });

    const fork = await forkAs('ada', 'engine', { organization: '', name: '' }, bob);
    expect(fork).toMatchObject({ permission: 'owner', repository: { name: 'engine', owner_login: 'bob', fork_id: parent.repository.id, description: 'the original', private: false } });
    expect(await listRefs(storage.pathOf('bob', 'engine'))).toEqual(await listRefs(parentDir));
    expect(await forksCount(parent.repository.id)).toBe(1);
    const [forked] = await events('repository.repo.forked');
    expect(forked).toMatchObject({ repository: { id: fork.repository.id, fork_id: parent.repository.id }, parent: { id: parent.repository.id }, actor_id: 2 });
    // What the fork webhook shows: both owners and the sender from the owner read model, and
    // the sender's permission on each repository.
    expect(forked).toMatchObject({
      repository_owner: { id: 2, login: 'bob', email: 'bob@example.com' }, parent_owner: { id: 1, login: 'ada' }, sender: { id: 2, login: 'bob' },
      permission: 'owner', parent_permission: 'read',
    });
    const created = (await events('repository.repo.created')).find((e) => Number(e.repository.id) === fork.repository.id);
    expect(created).toMatchObject({ repository_owner: { login: 'bob' }, sender: { login: 'bob' }, repository_parent: { repository: { id: parent.repository.id }, owner: { login: 'ada' } } });
    const [withParent] = await withParents(deps.store, [await getRepositoryById(deps.store, fork.repository.id, bob)]);
    expect(withParent.parent).toMatchObject({ repository: { id: parent.repository.id }, owner: { login: 'ada' } });
  });

  it('refuses a second fork by the same owner and a name already taken, with nothing created', async () => {
    const bob = caller(2, 'bob');
    await expect(forkAs('ada', 'engine', { organization: '', name: 'other' }, bob)).rejects.toMatchObject({ kind: 'already_exists', reason: 'already_forked' });
    const cat = await owner(3, 'cat');
    await createRepository(deps, input(3, 'engine', { auto_init: false }), cat);
    await expect(forkAs('ada', 'engine', { organization: '', name: '' }, cat)).rejects.toMatchObject({ kind: 'already_exists', reason: 'repo_exists' });
    expect(await db.repository.count({ where: { owner_id: 3n } })).toBe(1);
  });

  it('forks an empty repository as an empty repository with the parent\'s default branch', async () => {
    const moe = await owner(13, 'moe');
    const ned = await owner(14, 'ned');
    await createRepository(deps, input(13, 'blank', { auto_init: false, default_branch: 'trunk' }), moe);
    const fork = await forkAs('moe', 'blank', { organization: '', name: '' }, ned);
    expect(fork.repository).toMatchObject({ empty: true, default_branch: 'trunk' });
    expect(readFileSync(`${storage.pathOf('ned', 'blank')}/HEAD`, 'utf8').trim()).toBe('ref: refs/heads/trunk');
  });

  it('keeps a fork of a private repository private and hides it from strangers', async () => {
    const dan = await owner(4, 'dan');
    const eve = await owner(5, 'eve');
    await createRepository(deps, input(4, 'secret', { private: true }), dan);
    await expect(forkAs('dan', 'secret', { organization: '', name: '' }, eve)).rejects.toMatchObject({ kind: 'not_found' });
    const fork = await forkAs('dan', 'secret', { organization: '', name: 'mine' }, dan);
    expect(fork.repository.private).toBe(true);
    expect((await forksOf('dan', 'secret', dan, 0, 30)).total).toBe(1);
    await expect(getRepositoryById(deps.store, fork.repository.id, eve)).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('lists only the forks the caller may see', async () => {
    const fay = await owner(6, 'fay');
    const gus = await owner(7, 'gus');
    const hal = await owner(8, 'hal');
    await createRepository(deps, input(6, 'lib'), fay);
    const open = await forkAs('fay', 'lib', { organization: '', name: '' }, gus);
    const hidden = await forkAs('fay', 'lib', { organization: '', name: '' }, hal);
    await db.repository.update({ where: { id: BigInt(hidden.repository.id) }, data: { private: true } });
    const seen = await forksOf('fay', 'lib', caller(0, ''), 0, 30);
    expect(seen.items.map((f) => f.repository.id)).toEqual([open.repository.id]);
    expect(seen.total).toBe(1);
    expect((await forksOf('fay', 'lib', hal, 0, 30)).total).toBe(2);
  });

  it('decrements the counter when a fork is deleted, and a deleted parent leaves its forks standing alone', async () => {
    const ivy = await owner(9, 'ivy');
    const jon = await owner(10, 'jon');
    const parent = await createRepository(deps, input(9, 'tool'), ivy);
    const fork = await forkAs('ivy', 'tool', { organization: '', name: '' }, jon);
    expect(await forksCount(parent.repository.id)).toBe(1);
    await deleteRepository(deps, await resolveRepository(deps.store, 'jon', 'tool', jon), jon);
    expect(await forksCount(parent.repository.id)).toBe(0);

    const again = await forkAs('ivy', 'tool', { organization: '', name: 'tool2' }, jon);
    await deleteRepository(deps, await resolveRepository(deps.store, 'ivy', 'tool', ivy), ivy);
    const alone = await getRepositoryById(deps.store, again.repository.id, jon);
    expect(alone.repository.fork_id).toBeNull();
    expect((await withParents(deps.store, [alone]))[0].parent).toBeNull();
    expect(fork.repository.id).not.toBe(again.repository.id);
  });

  it('fetches a fork\'s branch into the base: objects only while the pull is opened, then its refs/pull/<index>/head', async () => {
    const kim = await owner(11, 'kim');
    const lou = await owner(12, 'lou');
    await createRepository(deps, input(11, 'app'), kim);
    await forkAs('kim', 'app', { organization: '', name: '' }, lou);
    const forkDir = storage.pathOf('lou', 'app');
    const sha = await commitInitialFiles(forkDir, 'topic', { 'topic.txt': 't\n' }, 'Topic\n', { name: 'Lou', email: 'lou@example.com' });

    const pair = await resolveForkPair(deps.store, { base: { owner: 'kim', name: 'app' }, head: { owner: 'lou' } }, lou);
    const git = forkHeadGit(storage);
    expect(await fetchForkHead(git, pair, 'topic', 0)).toBe(sha);
    const baseDir = storage.pathOf('kim', 'app');
    const refs = () => execFileSync('git', ['--git-dir', baseDir, 'for-each-ref', '--format=%(refname) %(objectname)'], { encoding: 'utf8' });
    expect(refs()).not.toContain('refs/anvil/');
    expect(execFileSync('git', ['--git-dir', baseDir, 'cat-file', '-t', sha], { encoding: 'utf8' }).trim()).toBe('commit');
    expect(await fetchForkHead(git, pair, 'topic', 3)).toBe(sha);
    expect(refs()).toContain(`refs/pull/3/head ${sha}`);

    await expect(fetchForkHead(git, pair, 'missing', 4)).rejects.toMatchObject({ kind: 'not_found', reason: 'head_not_found' });
    // The base's own owner, or someone with no fork of it, names no head repository.
    await expect(resolveForkPair(deps.store, { base: { owner: 'kim', name: 'app' }, head: { owner: 'ada' } }, lou)).rejects.toMatchObject({ reason: 'head_repo_not_found' });
    // From the fork's side, its parent is in the network too.
    const back = await resolveForkPair(deps.store, { base: { owner: 'lou', name: 'app' }, head: { owner: 'kim' } }, SYSTEM);
    expect(back.head.owner.login).toBe('kim');
  });

  it('answers a pull\'s head repositories to whoever reads the base, with their own permission, and only from its network', async () => {
    const max = await owner(15, 'max');
    const nia = await owner(16, 'nia');
    const oz = await owner(17, 'oz');
    const base = await createRepository(deps, input(15, 'site'), max);
    const fork = await forkAs('max', 'site', { organization: '', name: '' }, nia);
    await db.repository.update({ where: { id: BigInt(fork.repository.id) }, data: { private: true } });
    const elsewhere = await createRepository(deps, input(17, 'site'), oz);
    const baseFor = (who: Caller) => resolveRepository(deps.store, 'max', 'site', who);

    const stranger = caller(0, '');
    const seen = await pullHeadRepositories(deps.store, await baseFor(stranger), { ids: [fork.repository.id, elsewhere.repository.id, base.repository.id] }, stranger);
    expect(seen.map((r) => [r.repository.id, r.permission])).toEqual([[fork.repository.id, 'none']]);
    expect(seen[0].parent).toMatchObject({ repository: { id: base.repository.id } });
    const byName = await pullHeadRepositories(deps.store, await baseFor(nia), { owner: 'nia', name: 'site' }, nia);
    expect(byName.map((r) => [r.repository.id, r.permission])).toEqual([[fork.repository.id, 'owner']]);
    expect(await pullHeadRepositories(deps.store, await baseFor(oz), { owner: 'oz', name: 'site' }, oz)).toEqual([]);
  });

  it('updates a fork\'s head branch with its base in the fork, for those who may write to the fork', async () => {
    const pia = await owner(18, 'pia');
    const quin = await owner(19, 'quin');
    await createRepository(deps, input(18, 'kit'), pia);
    const fork = await forkAs('pia', 'kit', { organization: '', name: '' }, quin);
    const forkDir = storage.pathOf('quin', 'kit');
    const baseDir = storage.pathOf('pia', 'kit');
    /** A commit on `branch` of the repository at `dir`, on top of `parent`, keeping its tree. */
    const commitOn = (dir: string, branch: string, parent: string, message: string) => {
      const tree = execFileSync('git', ['--git-dir', dir, 'rev-parse', `${parent}^{tree}`], { encoding: 'utf8' }).trim();
      const sha = execFileSync('git', ['--git-dir', dir, '-c', 'user.name=Someone', '-c', 'user.email=someone@example.com', 'commit-tree', tree, '-p', parent, '-m', message], { encoding: 'utf8' }).trim();
      execFileSync('git', ['--git-dir', dir, 'update-ref', `refs/heads/${branch}`, sha]);
      return sha;
    };
    const main = execFileSync('git', ['--git-dir', baseDir, 'rev-parse', 'refs/heads/main'], { encoding: 'utf8' }).trim();
    const topic = commitOn(forkDir, 'topic', main, 'Topic');
    // The base moves on with a commit the fork does not have.
    const moved = commitOn(baseDir, 'main', main, 'Base moves');

    const protections = branchProtectionStore(db);
    const mergeDeps: PullMergeDeps & { forkHeads: ReturnType<typeof forkHeadGit> } = {
      store: deps.store, protections, statuses: commitStatusStore(db), pullGit: pullGit(storage), forkHeads: forkHeadGit(storage),
      branches: { store: deps.store, protections, git: branchGit(storage, { verify: async (c) => c.map(() => ({ verified: false, reason: 'none' })) }) },
      signatureOf: (who) => signatureOf(deps.store, who),
    };
    const lock = new RepositoryWriteLock();
    const turns: string[] = [];
    const update = async (who: Caller, style = 'merge') => updateForkPullHead(mergeDeps, await resolveRepository(deps.store, 'pia', 'kit', who), fork.repository.id,
      { baseBranch: 'main', headBranch: 'topic', style } satisfies UpdateInput, who, (o, n, work) => { turns.push(`${o}/${n}`); return lock.run(o, n, work); });

    // The base's owner may read the fork but not write to it.
    await expect(update(pia)).rejects.toMatchObject({ kind: 'forbidden', reason: 'update_not_allowed' });
    const merged = await update(quin);
    expect(merged.headBefore).toBe(topic);
    expect(turns).toEqual(['quin/kit']);
    const parents = execFileSync('git', ['--git-dir', forkDir, 'rev-list', '--parents', '-n', '1', 'refs/heads/topic'], { encoding: 'utf8' }).trim().split(' ');
    expect(parents).toEqual([merged.headSha, topic, moved]);
    // The temporary ref that brought the base's commits is gone; the base is untouched.
    expect(execFileSync('git', ['--git-dir', forkDir, 'for-each-ref', 'refs/anvil/'], { encoding: 'utf8' })).toBe('');
    expect(execFileSync('git', ['--git-dir', baseDir, 'rev-parse', 'refs/heads/main'], { encoding: 'utf8' }).trim()).toBe(moved);
    // Up to date: nothing to do.
    expect(await update(quin, 'rebase')).toEqual({ headBefore: merged.headSha, headSha: merged.headSha });
  });
});
