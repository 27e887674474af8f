// The refs table against real git and PostgreSQL: after pushes, force pushes, deletions,
// tags and API-style ref moves, each in a write turn, the rows say what `git for-each-ref`
// says; reads resolve from them; a repository without rows is read from git and backfilled.
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Caller } from '@anvil/kit';
import { createRepository, repositoryFor } from '../src/domain/repositories.js';
import { changeFiles, type ChangeFilesInput } from '../src/domain/file-changes.js';
import { RepositoryWriteLock } from '../src/domain/write-lock.js';
import { recordRefMove } from '../src/domain/branches.js';
import { updateRef } from '../src/git/branches.js';
import { RefIndex } from '../src/git/ref-index.js';
import { getContents } from '../src/domain/contents.js';
import { listCommits } from '../src/domain/commits.js';
import type { RepositoryStore } from '../src/domain/store.js';
import { contentFiles } from '../src/git/content-git.js';
import { commitGit } from '../src/git/commits-git.js';
import { repositoryRead, scopedReadAccess } from '../src/grpc/read-access.js';
import { gitRefRows } from '../src/store/git-refs.js';
import { readRefRows } from '../src/git/ref-snapshot.js';
import { repositoryTestbed, type RepositoryTestbed } from './support/testbed.js';

jest.setTimeout(90_000);

const env = {
  ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Ada', GIT_AUTHOR_EMAIL: 'ada@example.com', GIT_COMMITTER_NAME: 'Ada', GIT_COMMITTER_EMAIL: 'ada@example.com',
};

function sh(cwd: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env }, (err, stdout, stderr) => (err ? reject(new Error(`git ${args.join(' ')}: ${stderr}`)) : resolve(stdout.trim())));
  });
}

let bed: RepositoryTestbed;
let refs: RefIndex;
let lock: RepositoryWriteLock;
let gitDir: string;
let work: string;
/** Statements the refs table was asked (each read() is one). */
let reads = 0;
/** Turns whose end brought the refs table up to git. */
let turnEnds = 0;
let ada: Caller;

/** What git says, written out independently of the service's parser. */
async function gitSays(): Promise<Array<{ name: string; objectId: string; commitId: string; subject: string; author: string }>> {
  const out = await sh(gitDir, ['for-each-ref', '--sort=refname', '--format=%(refname) %(objectname) %(*objectname)', 'refs/heads/', 'refs/tags/']);
  const rows = [];
  for (const line of out.split('\n').filter(Boolean)) {
    const [name, objectId, peeled] = line.split(' ');
    const commitId = peeled || objectId;
    const [subject, author] = (await sh(gitDir, ['log', '-1', '--format=%s%x00%an <%ae>', commitId])).split('\0');
    rows.push({ name, objectId, commitId, subject, author });
  }
  return rows;
}

async function tableSays() {
  const snapshot = await refs.snapshot(gitDir);
  return snapshot?.refs.map((r) => ({
    name: r.name, objectId: r.objectId, commitId: r.commitId, subject: r.message.split('\n')[0], author: `${r.authorName} <${r.authorEmail}>`,
  }));
}

/** A push as the git side channel runs one: inside the repository's write turn. */
const push = (...args: string[]) => lock.run('ada', 'tracked', () => sh(work, ['push', gitDir, ...args]));

async function commit(message: string) {
  await sh(work, ['commit', '--allow-empty', '-m', message]);
  return sh(work, ['rev-parse', 'HEAD']);
}

beforeAll(async () => {
  bed = await repositoryTestbed('gitrefs');
  ada = await bed.owner(1, 'ada');
  lock = new RepositoryWriteLock({
    afterTurn: (owner, name) => { turnEnds++; return refs.sync(owner, name); },
    takeMove: (owner, name) => refs.takeMove(owner, name),
  });
  const rows = gitRefRows(bed.db);
  const counted = { ...rows, read: (...args: Parameters<typeof rows.read>) => { reads++; return rows.read(...args); } };
  refs = new RefIndex(counted, bed.storage, { inTurn: (owner, name, w) => lock.run(owner, name, w) });
  await createRepository(bed.deps, {
    owner_id: 1, name: 'tracked', description: '', private: false, default_branch: '', auto_init: true, readme: '', template: false, object_format_name: '',
  }, ada);
  gitDir = bed.storage.pathOf('ada', 'tracked');
  work = await mkdtemp(join(bed.dir, 'work-'));
  await sh(work, ['init', '-q', '-b', 'main']);
  await sh(work, ['fetch', '-q', gitDir, 'main']);
  await sh(work, ['reset', '-q', '--hard', 'FETCH_HEAD']);
});

afterAll(async () => {
  bed.storage.catfile.close();
  await bed?.close();
});

describe('the refs table', () => {
  it('is read from git and backfilled for a repository that has no rows yet', async () => {
    expect(await refs.snapshot(gitDir)).toBeUndefined();
    const heads = await refs.branchHeads(gitDir);
    expect(heads.map((h) => h.name)).toEqual(['main']);
    // The backfill takes the repository's turn; another turn runs after it.
    await lock.run('ada', 'tracked', async () => {});
    expect(await tableSays()).toEqual(await gitSays());
  });

  it('equals git after pushes of new branches, moves, tags, force pushes and deletions', async () => {
    const one = await commit('one');
    await push('HEAD:refs/heads/main', 'HEAD:refs/heads/feature');
    expect(await tableSays()).toEqual(await gitSays());

    await commit('two');
    await sh(work, ['tag', '-a', 'v1', '-m', 'Release one']);
    await sh(work, ['tag', 'light', one]);
    await push('HEAD:refs/heads/main', 'refs/tags/v1', 'refs/tags/light');
    expect(await tableSays()).toEqual(await gitSays());

    await sh(work, ['reset', '-q', '--hard', one]);
    await commit('rewritten');
    await push('--force', 'HEAD:refs/heads/main');
    expect(await tableSays()).toEqual(await gitSays());

    await push(':refs/heads/feature', ':refs/tags/light');
    expect(await tableSays()).toEqual(await gitSays());
    expect((await tableSays())!.map((r) => r.name)).toEqual(['refs/heads/main', 'refs/tags/v1']);
  });

  it('equals git after ref moves an API write makes in its turn', async () => {
    const main = await sh(gitDir, ['rev-parse', 'refs/heads/main']);
    const zero = '0'.repeat(40);
    await lock.run('ada', 'tracked', () => updateRef(gitDir, 'refs/heads/from-api', main, zero));
    expect(await tableSays()).toEqual(await gitSays());
    await lock.run('ada', 'tracked', () => updateRef(gitDir, 'refs/heads/from-api', zero, main));
    expect(await tableSays()).toEqual(await gitSays());
  });

  it('writes just the moved branch\'s row after a contents-style write, the very row git would give', async () => {
    const files = contentFiles(bed.storage, refs)('ada', 'tracked');
    const version = (await refs.snapshot(gitDir))!.version;
    const write = async (ref: string, old: string, message: string) => lock.run('ada', 'tracked', async () => {
      const who = { name: 'Ada Lovelace', email: 'ada@example.com', time: 1_700_000_000 };
      const written = await files.writeCommit({
        parent: old, changes: [{ path: `notes/${ref.length}-${message.length}.txt`, mode: '100644', content: Buffer.from(message) }],
        message, author: who, committer: { ...who, time: 1_700_000_100 }, objectFormat: 'sha1',
      });
      await files.updateRef(ref, written.commitSha, ref === 'refs/heads/main' ? old : '0'.repeat(40));
      files.headMoved(ref, { sha: written.commitSha, message, author: who, committer: { ...who, time: 1_700_000_100 } });
    });
    const main = await sh(gitDir, ['rev-parse', 'refs/heads/main']);
    await write('refs/heads/main', main, 'Add a note\n\nWith a body.\n\nSigned-off-by: Ada Lovelace <ada@example.com>\n');
    await write('refs/heads/noted', main, 'A new branch\n');
    const snapshot = (await refs.snapshot(gitDir))!;
    expect(snapshot.version).not.toBe(version);
    expect(snapshot.refs).toEqual(await readRefRows(gitDir));
    expect((await bed.db.repository.findFirst({ where: { lower_name: 'tracked' } }))!.branch_count).toBe(snapshot.refs.filter((r) => r.name.startsWith('refs/heads/')).length);
    await lock.run('ada', 'tracked', () => updateRef(gitDir, 'refs/heads/noted', '0'.repeat(40), snapshot.refs.find((r) => r.name === 'refs/heads/noted')!.objectId));
    expect(await tableSays()).toEqual(await gitSays());
  });

  describe('a contents-style write that records its move (recordRefMove)', () => {
    /** A commit on `ref` from `old` in a turn of `name`, recorded with its push event and `bytes` of growth. */
    const writeAndRecord = (name: string, ref: string, old: string | undefined, bytes: number) => lock.run('ada', name, async () => {
      const files = contentFiles(bed.storage, refs)('ada', name);
      const who = { name: 'Ada', email: 'ada@example.com', time: 1_700_000_200 };
      const message = `Recorded on ${ref}\n`;
      const written = await files.writeCommit({ parent: old, changes: [{ path: `recorded/${bytes}.txt`, mode: '100644', content: Buffer.from(message) }], message, author: who, committer: who, objectFormat: 'sha1' });
      const zero = '0'.repeat(40);
      await files.updateRef(ref, written.commitSha, old && ref === 'refs/heads/main' ? old : zero);
      files.headMoved(ref, { sha: written.commitSha, message, author: who, committer: who });
      const { repository } = (await bed.deps.store.findByName('ada', name))!;
      const push = { ref, before: zero, after: written.commitSha, commits: [], totalCommits: 1 };
      await recordRefMove(bed.deps.store, repository, (r) => [{ kind: 'push', repository: r, push, pusher: { id: 1, login: 'ada' } }], {
        firstCommit: false, grown: { repositoryId: repository.id, bytes },
      });
    });
    /** The push events in the outbox, and the repository's row. */
    const state = async (name: string) => ({
      events: await bed.db.outboxEvent.count({ where: { subject: 'repository.push' } }),
      repository: (await bed.db.repository.findFirst({ where: { lower_name: name } }))!,
    });

    it('writes the moved branch\'s row in the statement of its push event, with the size grown and a new branch counted, leaving the turn\'s end nothing to write', async () => {
      const main = await sh(gitDir, ['rev-parse', 'refs/heads/main']);
      const before = await state('tracked');
      const ends = turnEnds;
      await writeAndRecord('tracked', 'refs/heads/main', main, 100);
      await writeAndRecord('tracked', 'refs/heads/recorded', main, 20);
      expect(turnEnds).toBe(ends);
      expect(await tableSays()).toEqual(await gitSays());
      const after = await state('tracked');
      expect(after.events).toBe(before.events + 2);
      expect(after.repository.size - before.repository.size).toBe(120n);
      expect(after.repository.branch_count).toBe(before.repository.branch_count + 1);
      const recorded = await sh(gitDir, ['rev-parse', 'refs/heads/recorded']);
      await lock.run('ada', 'tracked', () => updateRef(gitDir, 'refs/heads/recorded', '0'.repeat(40), recorded));
    });

    it('leaves the rows of a repository that has none to the turn\'s end, which writes them all from git', async () => {
      await createRepository(bed.deps, {
        owner_id: 1, name: 'unindexed', description: '', private: false, default_branch: '', auto_init: true, readme: '', template: false, object_format_name: '',
      }, ada);
      const unindexed = bed.storage.pathOf('ada', 'unindexed');
      const { repository } = (await bed.deps.store.findByName('ada', 'unindexed'))!;
      expect(await bed.db.gitRefState.count({ where: { repository_id: repository.id } })).toBe(0);
      const main = await sh(unindexed, ['rev-parse', 'refs/heads/main']);
      const ends = turnEnds;
      await writeAndRecord('unindexed', 'refs/heads/main', main, 10);
      expect(turnEnds).toBe(ends + 1);
      expect((await refs.snapshot(unindexed))!.refs).toEqual(await readRefRows(unindexed));
      await bed.db.repository.deleteMany({ where: { lower_name: 'unindexed' } });
    });
  });

  it('resolves branches, tags, HEAD and ids as git does, from the rows', async () => {
    const main = await sh(gitDir, ['rev-parse', 'refs/heads/main']);
    const v1 = await sh(gitDir, ['rev-parse', 'v1^{commit}']);
    expect(await refs.resolveCommit(gitDir, 'main')).toBe(main);
    expect(await refs.resolveCommit(gitDir, 'refs/heads/main')).toBe(main);
    expect(await refs.resolveCommit(gitDir, 'HEAD')).toBe(main);
    expect(await refs.resolveCommit(gitDir, 'v1')).toBe(v1);
    expect(await refs.resolveCommit(gitDir, main)).toBe(main);
    expect(await refs.resolveCommit(gitDir, main.slice(0, 10))).toBe(main);
    expect(await refs.resolveCommit(gitDir, 'nope')).toBeUndefined();
    expect(await refs.resolveCommit(gitDir, '--all')).toBeUndefined();
    expect(await refs.resolveRevision(gitDir, 'v1')).toEqual({ kind: 'tag', name: 'v1', commitSha: v1 });
    const [tag] = await refs.tags(gitDir);
    expect(tag).toMatchObject({ name: 'v1', annotated: true, commitSha: v1, message: 'Release one\n', tagger: { name: 'Ada', email: 'ada@example.com' } });
    expect(await refs.findTag(gitDir, 'v1')).toEqual(tag);
    const tree = await sh(gitDir, ['rev-parse', 'main^{tree}']);
    expect((await refs.lookupObjects(gitDir, ['main^{tree}'])).get('main^{tree}')?.sha).toBe(tree);
  });

  it('answers every question of one read call from one statement, and asks again in the next call', async () => {
    const before = reads;
    await refs.readCall(async () => {
      await refs.snapshot(gitDir);
      await refs.resolveCommit(gitDir, 'main');
      await refs.resolveRevision(gitDir, 'v1');
      await refs.branchHeads(gitDir, 'refs/heads/main');
      await refs.tags(gitDir);
    });
    expect(reads - before).toBe(1);
    await refs.readCall(async () => refs.resolveCommit(gitDir, 'main'));
    expect(reads - before).toBe(2);
  });

  it('reads just the refs a writer names (a merge\'s base and head), and a call that read them answers no other', async () => {
    const main = await sh(gitDir, ['rev-parse', 'refs/heads/main']);
    const before = reads;
    await refs.readCall(async () => {
      const snapshot = await refs.snapshot(gitDir, ['refs/heads/main', 'refs/heads/absent']);
      expect(snapshot?.refs.map((r) => [r.name, r.objectId])).toEqual([['refs/heads/main', main]]);
      // Asked again for one of them: the same statement answers.
      expect((await refs.snapshot(gitDir, 'refs/heads/main'))?.refs.map((r) => r.name)).toEqual(['refs/heads/main']);
      expect(reads - before).toBe(1);
      // A ref it did not name (the tag) is asked for.
      expect((await refs.snapshot(gitDir))?.refs.map((r) => r.name)).toEqual(['refs/heads/main', 'refs/tags/v1']);
      expect(reads - before).toBe(2);
    });
  });

  it('brings the branch protection rules in the same statement as the heads', async () => {
    const [repository] = await bed.db.repository.findMany({ where: { lower_name: 'tracked' } });
    await bed.db.branchProtection.create({ data: { repository_id: repository.id, rule_name: 'main', enable_push: true, push_whitelist_user_ids: [], force_push_allowlist_user_ids: [], merge_whitelist_user_ids: [], approvals_whitelist_user_ids: [] } });
    const before = reads;
    const read = await refs.readCall(() => refs.branchesWithRules(gitDir, 1, 'refs/heads/main'));
    expect(reads - before).toBe(1);
    expect(read?.heads.map((h) => h.name)).toEqual(['main']);
    expect(read?.protections).toMatchObject([{ ruleName: 'main', enablePush: true, repositoryId: Number(repository.id) }]);
    expect(read?.teams).toEqual([]);
    await bed.db.branchProtection.deleteMany({ where: { repository_id: repository.id } });
    expect((await refs.branchesWithRules(gitDir, 1))?.protections).toEqual([]);
  });

  it('trusts the gateway\'s resolution for a read, with the default branch and emptiness from the rows', async () => {
    const [row] = await bed.db.repository.findMany({ where: { lower_name: 'tracked' } });
    // What the gateway remembered before the repository's last change: a stale default branch.
    const scope = {
      repository: { id: String(row.id), owner_id: '1', owner_login: 'ada', name: 'tracked', default_branch: 'stale', empty: true, private: false },
      owner: { id: '1', login: 'ada', type: 'user' },
      permission: 'read',
    } as unknown as Parameters<typeof scopedReadAccess>[1];
    const ada = { userId: 1, login: 'ada', isAdmin: false, restricted: false, scopes: ['all'] };
    const deps = { refs, storage: bed.storage };
    const access = await refs.readCall(() => scopedReadAccess(deps, scope, { owner: 'ADA', name: 'Tracked' }, ada));
    expect(access).toMatchObject({ permission: 'read', repository: { id: Number(row.id), default_branch: row.default_branch, empty: row.empty }, owner: { login: 'ada' } });
    // A scope resolved for another repository, or below read, is not trusted for this one.
    expect(await scopedReadAccess(deps, scope, { owner: 'ada', name: 'other' }, ada)).toBeUndefined();
    expect(await scopedReadAccess(deps, { ...scope!, permission: 'none' } as typeof scope, { owner: 'ada', name: 'tracked' }, ada)).toBeUndefined();
    expect(await scopedReadAccess(deps, undefined, { owner: 'ada', name: 'tracked' }, ada)).toBeUndefined();
  });

  it('answers a contents read and a commit page with the gateway\'s resolution from one statement, asking the store nothing', async () => {
    const [row] = await bed.db.repository.findMany({ where: { lower_name: 'tracked' } });
    const scope = {
      repository: { id: String(row.id), owner_id: '1', owner_login: 'ada', name: 'tracked', default_branch: row.default_branch, empty: false },
      owner: { id: '1', login: 'ada', type: 'user' },
      permission: 'read',
    } as unknown as Parameters<typeof scopedReadAccess>[1];
    const ada = { userId: 1, login: 'ada', isAdmin: false, restricted: false, scopes: ['all'] };
    // Any question to the store (permission, collaborators, teams, protections) fails the read.
    const store = new Proxy({}, { get: (_t, key) => () => { throw new Error(`the store was asked ${String(key)}`); } }) as unknown as RepositoryStore;
    const deps = { store, refs, storage: bed.storage };
    const ref = { owner: 'ada', name: 'tracked' };
    const context = { caller: ada, repository: scope };

    let before = reads;
    const contentDeps = { store, protections: store as never, files: contentFiles(bed.storage, refs), maxBlobSize: 1 << 20, sizes: { refresh: () => undefined } };
    const view = await repositoryRead(deps, ref, context, (access) => getContents(contentDeps, access, { path: '', revision: '', includeContent: true, includeCommit: true }));
    expect(view.at).toMatchObject({ kind: 'branch', name: row.default_branch });
    expect(reads - before).toBe(1);

    before = reads;
    const people = { usersByEmails: async () => new Map() };
    const commitDeps = { store, git: commitGit(bed.storage, refs), people, signatures: { verify: async () => [] } };
    const details = { stat: false, verification: false, files: false };
    const page = await repositoryRead(deps, ref, context, (access) => listCommits(commitDeps, access, {
      sha: '', path: '', not: '', since: '', until: '', page: 1, limit: 10, details, summaryOnly: true,
    }));
    expect(page.commits.length).toBeGreaterThan(0);
    expect(reads - before).toBe(1);
  });

  it('starts a contents write with one statement for the refs\' rows and the protection rules, sent before the resolution returns, for a new branch too', async () => {
    const [row] = await bed.db.repository.findMany({ where: { lower_name: 'tracked' } });
    await bed.db.branchProtection.create({ data: { repository_id: row.id, rule_name: 'guarded', enable_push: false, push_whitelist_user_ids: [], force_push_allowlist_user_ids: [], merge_whitelist_user_ids: [], approvals_whitelist_user_ids: [] } });
    // The rules come with the rows: asking the protections store fails the write.
    const protections = { list: async () => { throw new Error('the protections store was asked'); } };
    const deps = { store: bed.deps.store, protections: protections as never, files: contentFiles(bed.storage, refs), maxBlobSize: 1 << 20, sizes: { refresh: () => undefined } };
    const write = (newBranch: string): Promise<unknown> => {
      const input: ChangeFilesInput = {
        branch: '', newBranch, message: `on ${newBranch}`, signoff: false, forcePush: false,
        files: [{ operation: 'create', path: `${newBranch}.txt`, fromPath: '', sha: '', content: Buffer.from(newBranch) }],
      };
      // The path's names as a client may write them; the rows' statement is already out when the resolution starts.
      return lock.run('ada', 'tracked', () => refs.readCall(() => changeFiles(deps, { owner: 'Ada', name: 'Tracked' }, async () => {
        readsBeforeResolution.push(reads - before);
        return repositoryFor(bed.deps.store, 'Ada', 'Tracked', ada);
      }, input, ada)));
    };
    const readsBeforeResolution: number[] = [];
    let before = reads;
    await expect(write('guarded')).rejects.toMatchObject({ kind: 'forbidden' });
    expect(reads - before).toBe(1);
    before = reads;
    await write('turn-start');
    expect(reads - before).toBe(1);
    expect(readsBeforeResolution).toEqual([1, 1]);
    expect(await sh(gitDir, ['cat-file', 'blob', 'refs/heads/turn-start:turn-start.txt'])).toBe('turn-start');
    expect(await sh(gitDir, ['rev-parse', '--verify', '-q', 'refs/heads/guarded']).catch(() => 'absent')).toBe('absent');
    await bed.db.branchProtection.deleteMany({ where: { repository_id: row.id } });
  });

  it('is removed with its repository', async () => {
    await bed.db.repository.deleteMany({ where: { lower_name: 'tracked' } });
    expect(await bed.db.gitRef.count()).toBe(0);
    expect(await bed.db.gitRefState.count()).toBe(0);
  });
});
