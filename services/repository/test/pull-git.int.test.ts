// Integration test: what pull requests ask of git, over real git and PostgreSQL — comparing a
// head with its base, finding conflicts before a merge, each merge style, merges refused by
// branch protection, and a merge that loses the race to a push leaving nothing half-merged.
import { execFile } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { Caller } from '@anvil/kit';
import { decodeEvent } from '@anvil/proto';
import { createBranchProtection, DEFAULT_PROTECTION } from '../src/domain/branch-protections.js';
import { checkMergeability, countDiverging, diffStats, getMergeBase, listPullCommits, pullDiff, type PullGitDeps } from '../src/domain/pull-git.js';
import { countAheadEarly, mergeToRef, updatePullRef, type MergeInput, type PullMergeDeps } from '../src/domain/pull-merge.js';
import { createRepository, resolveRepository } from '../src/domain/repositories.js';
import { signatureOf } from '../src/domain/signatures.js';
import { RepositoryWriteLock } from '../src/domain/write-lock.js';
import { branchGit } from '../src/git/branch-git.js';
import { pullGit, pullGitOf } from '../src/git/pull-git-port.js';
import { branchProtectionStore } from '../src/store/branch-protections.js';
import { gitRefRows } from '../src/store/git-refs.js';
import { RefIndex } from '../src/git/ref-index.js';
import { readRefRows } from '../src/git/ref-snapshot.js';
import { commitStatusStore } from '../src/store/commit-statuses.js';
import { commitsBetween } from '../src/git/refs.js';
import { repositoryTestbed, type RepositoryTestbed } from './support/testbed.js';

jest.setTimeout(60_000);

let tb: RepositoryTestbed;
let deps: PullMergeDeps;
let alice: Caller;
let bob: Caller;
let counter = 0;

function run(args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], {
      cwd, env: { PATH: process.env.PATH, HOME: tb.dir, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C' },
    }, (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }));
  });
}

const git = async (cwd: string, ...args: string[]) => (await run(args, cwd)).stdout.trim();

/** A fresh repository of alice's with a clone to commit in; pushes go straight to the bare repository. */
async function repo() {
  const name = `pulls${++counter}`;
  await createRepository(tb.deps, {
    owner_id: 1, name, description: '', private: false, default_branch: '', auto_init: true, readme: '', template: false, object_format_name: '',
  }, alice);
  const gitDir = tb.storage.pathOf('alice', name);
  const work = join(tb.dir, `${name}-work`);
  await run(['clone', gitDir, work], tb.dir);
  const commit = async (file: string, content: string, message = `change ${file}`) => {
    await writeFile(join(work, file), content);
    await run(['add', file], work);
    await run(['commit', '-m', message], work);
    return git(work, 'rev-parse', 'HEAD');
  };
  const push = (...refspecs: string[]) => run(['push', '-f', 'origin', ...refspecs], work);
  const branch = (b: string) => git(gitDir, 'rev-parse', `refs/heads/${b}`);
  return { name, gitDir, work, commit, push, branch, checkout: (b: string, from?: string) => run(['checkout', '-q', '-B', b, ...(from ? [from] : [])], work) };
}

/** Alice's repository `name` resolved for `who`, as the service resolves before it asks git (the gateway's resolution, else its own). */
const aliceRepo = (name: string, who: Caller = alice) => resolveRepository(tb.deps.store, 'alice', name, who);

const merge = async (name: string, input: Partial<MergeInput>, caller: Caller = alice) => mergeToRef(deps, await aliceRepo(name, caller), {
  baseBranch: 'main', head: 'topic', style: 'merge', message: '', expectedHeadSha: '', pullIndex: 1, pullTitle: 'Add things', deleteHeadBranch: '', ...input,
}, caller);

beforeAll(async () => {
  tb = await repositoryTestbed('pullgit');
  alice = await tb.owner(1, 'alice');
  bob = await tb.owner(2, 'bob');
  const protections = branchProtectionStore(tb.db);
  deps = {
    store: tb.deps.store, protections, statuses: commitStatusStore(tb.db), pullGit: pullGit(tb.storage),
    branches: { store: tb.deps.store, protections, git: branchGit(tb.storage, { verify: async (c) => c.map(() => ({ verified: false, reason: 'none' })) }) },
    signatureOf: (caller) => signatureOf(tb.deps.store, caller),
  };
}, 30_000);

afterAll(async () => {
  await tb?.close();
}, 30_000);

describe('comparing a pull request head with its base', () => {
  it('reports the merge base, divergence, changed files with line counts and the head commits', async () => {
    const r = await repo();
    const fork = await r.branch('main');
    await r.checkout('topic');
    await r.commit('a.txt', 'one\ntwo\n', 'first');
    const head = await r.commit('b.txt', 'x\n', 'second');
    await r.checkout('main', 'origin/main');
    await r.commit('c.txt', 'base\n', 'base moves');
    await r.push('topic', 'main');

    const pd: PullGitDeps = deps;
    expect(await getMergeBase(pd, await aliceRepo(r.name), 'main', 'topic')).toEqual({ mergeBase: fork, baseSha: await r.branch('main'), headSha: head });
    expect(await countDiverging(pd, await aliceRepo(r.name), 'main', 'topic')).toMatchObject({ ahead: 2, behind: 1 });
    const stats = await diffStats(pd, await aliceRepo(r.name), 'main', 'topic', { offset: 0, limit: 1 });
    expect(stats).toMatchObject({ additions: 3, deletions: 0, changedFiles: 2, headSha: head });
    expect(stats.files).toEqual([{ filename: 'a.txt', status: 'added', additions: 2, deletions: 0, previousFilename: '' }]);
    const commits = await listPullCommits(pd, await aliceRepo(r.name), 'main', 'topic', { offset: 0, limit: 30 });
    expect(commits.total).toBe(2);
    expect(commits.commits.map((c) => c.message.trim())).toEqual(['first', 'second']);
    const diff = await pullDiff(pd, await aliceRepo(r.name), 'main', 'topic', 'diff');
    expect(diff).toContain('+++ b/a.txt');
    expect(diff).not.toContain('c.txt');
    expect(await pullDiff(pd, await aliceRepo(r.name), 'main', 'topic', 'patch')).toContain('Subject: [PATCH 1/2] first');
  });

  it('answers not found for a head or base that names no commit, and never hands a revision to git as an option', async () => {
    const r = await repo();
    await expect(getMergeBase(deps, await aliceRepo(r.name), 'main', 'nope')).rejects.toMatchObject({ reason: 'head_not_found' });
    await expect(getMergeBase(deps, await aliceRepo(r.name), '--output=/tmp/x', 'main')).rejects.toMatchObject({ reason: 'base_not_found' });
  });

  it('finds conflicts before any merge and names the conflicted files', async () => {
    const r = await repo();
    await r.checkout('topic');
    await r.commit('README.md', 'topic version\n');
    await r.checkout('main', 'origin/main');
    await r.commit('README.md', 'main version\n');
    await r.push('topic', 'main');
    const result = await checkMergeability(deps, await aliceRepo(r.name), 'main', 'topic');
    expect(result).toMatchObject({ mergeable: false, conflictedFiles: ['README.md'] });

    const before = await r.branch('main');
    await expect(merge(r.name, {})).rejects.toMatchObject({ reason: 'not_mergeable' });
    expect(await r.branch('main')).toBe(before);
  });
});

describe('merging a pull request', () => {
  async function diverged() {
    const r = await repo();
    await r.checkout('topic');
    await r.commit('a.txt', 'a\n', 'add a');
    await r.commit('b.txt', 'b\n', 'add b');
    await r.checkout('main', 'origin/main');
    await r.commit('c.txt', 'c\n', 'add c');
    await r.push('topic', 'main');
    return r;
  }

  it('merges with a merge commit whose parents are the base and the head', async () => {
    const r = await diverged();
    const base = await r.branch('main');
    const head = await r.branch('topic');
    const result = await merge(r.name, {});
    expect(result).toMatchObject({ baseBefore: base, headSha: head });
    expect(await r.branch('main')).toBe(result.mergeCommitSha);
    expect(await git(r.gitDir, 'log', '-1', '--format=%P%n%s', 'main')).toBe(`${base} ${head}\nMerge pull request 'Add things' (#1) from topic into main`);
    expect(await git(r.gitDir, 'rev-parse', 'refs/pull/1/head')).toBe(head);
  });

  it('squashes the head into one commit on the base', async () => {
    const r = await diverged();
    const base = await r.branch('main');
    await merge(r.name, { style: 'squash', author: { name: 'Poster', email: 'poster@example.com' } });
    expect(await git(r.gitDir, 'log', '-1', '--format=%P|%an|%s', 'main')).toBe(`${base}|Poster|Add things (#1)`);
    expect(await git(r.gitDir, 'ls-tree', '--name-only', 'main')).toEqual(expect.stringContaining('a.txt\nb.txt\nc.txt'));
  });

  it('rebases the head commits onto the base, keeping their authors and messages', async () => {
    const r = await diverged();
    const base = await r.branch('main');
    await merge(r.name, { style: 'rebase' });
    expect(await git(r.gitDir, 'log', '--format=%s', `${base}..main`)).toBe('add b\nadd a');
    expect(await git(r.gitDir, 'rev-list', '--merges', `${base}..main`)).toBe('');
  });

  it('rebases then merges with a merge commit', async () => {
    const r = await diverged();
    const base = await r.branch('main');
    await merge(r.name, { style: 'rebase-merge' });
    expect(await git(r.gitDir, 'log', '--format=%s', '--first-parent', `${base}..main`)).toContain('Merge pull request');
    expect(await git(r.gitDir, 'rev-list', '--count', `${base}..main`)).toBe('3');
  });

  it('fast-forwards only when the base has not moved, and refuses otherwise', async () => {
    const r = await diverged();
    await expect(merge(r.name, { style: 'fast-forward-only' })).rejects.toMatchObject({ reason: 'not_fast_forward' });
    await r.checkout('ff', 'origin/main');
    const head = await r.commit('d.txt', 'd\n');
    await r.push('ff');
    await merge(r.name, { style: 'fast-forward-only', head: 'ff' });
    expect(await r.branch('main')).toBe(head);
  });

  it('refuses an unknown style, a moved head and a head already merged', async () => {
    const r = await diverged();
    await expect(merge(r.name, { style: 'octopus' })).rejects.toMatchObject({ kind: 'invalid' });
    await expect(merge(r.name, { expectedHeadSha: 'a'.repeat(40) })).rejects.toMatchObject({ reason: 'head_moved' });
    await merge(r.name, {});
    await expect(merge(r.name, {})).rejects.toMatchObject({ reason: 'already_merged' });
  });

  it('merges a head whose commits cancel each other out (its trial merge is the base\'s own tree), as Gitea does', async () => {
    const r = await repo();
    await r.checkout('topic');
    await r.commit('tmp.txt', 'tmp\n', 'add tmp');
    await run(['rm', '-q', 'tmp.txt'], r.work);
    await run(['commit', '-q', '-m', 'remove tmp'], r.work);
    await r.push('topic');
    const base = await r.branch('main');
    const head = await r.branch('topic');
    const result = await merge(r.name, {});
    expect(await git(r.gitDir, 'log', '-1', '--format=%P', 'main')).toBe(`${base} ${head}`);
    expect(await git(r.gitDir, 'rev-parse', 'main^{tree}')).toBe(await git(r.gitDir, 'rev-parse', `${base}^{tree}`));
    expect(result.mergeCommitSha).toBe(await r.branch('main'));
  });

  it('lands the tree its mergeability check found when base and head have not moved since, and a fresh one once the base moved', async () => {
    const r = await diverged();
    const checked = await checkMergeability(deps, await aliceRepo(r.name), 'main', 'topic');
    await merge(r.name, {});
    expect(await git(r.gitDir, 'rev-parse', 'main^{tree}')).toBe(checked.treeSha);
    // A second pull from the same head after the base moved on: merged anew, not from the first check.
    await r.checkout('more', 'origin/topic');
    await r.commit('d.txt', 'd\n', 'add d');
    await r.push('more');
    const moved = await r.branch('main');
    await merge(r.name, { head: 'more', pullIndex: 2 });
    const expected = (await git(r.gitDir, 'merge-tree', '--write-tree', moved, 'refs/heads/more')).split('\n')[0];
    expect(await git(r.gitDir, 'rev-parse', 'main^{tree}')).toBe(expected);
    expect(await git(r.gitDir, 'ls-tree', '--name-only', 'main')).toEqual(expect.stringContaining('a.txt\nb.txt\nc.txt\nd.txt'));
  });

  it('refuses, in every style, a head with no history in common with the base and a head already in it, moving nothing', async () => {
    const r = await repo();
    await run(['checkout', '-q', '--orphan', 'topic'], r.work);
    await r.commit('orphan.txt', 'o\n', 'unrelated');
    await r.checkout('main', 'origin/main');
    await r.push('main:old');
    await r.commit('later.txt', 'l\n');
    await r.push('topic', 'main');
    const before = await r.branch('main');
    for (const style of ['merge', 'squash', 'rebase', 'rebase-merge', 'fast-forward-only']) {
      await expect(merge(r.name, { style })).rejects.toMatchObject({ reason: 'no_merge_base' });
      await expect(merge(r.name, { style, head: 'old' })).rejects.toMatchObject({ reason: 'already_merged' });
    }
    expect(await r.branch('main')).toBe(before);
  });

  it('deletes the head branch after the merge when asked, and the pull keeps its head ref', async () => {
    const r = await diverged();
    const head = await r.branch('topic');
    const result = await merge(r.name, { deleteHeadBranch: 'topic' });
    expect(result.headBranchDeleted).toBe(true);
    expect((await run(['rev-parse', '--verify', 'refs/heads/topic'], r.gitDir)).code).toBe(1);
    expect(await git(r.gitDir, 'rev-parse', 'refs/pull/1/head')).toBe(head);
    expect(await getMergeBase(deps, await aliceRepo(r.name), 'main', 'refs/pull/1/head')).toMatchObject({ headSha: head });
  });

  it('merges a pull whose head branch is gone from the pull\'s own ref', async () => {
    const r = await diverged();
    const head = await r.branch('topic');
    expect(await updatePullRef(deps, await aliceRepo(r.name), 1, 'topic')).toBe(head);
    await run(['push', 'origin', ':topic'], r.work);
    const result = await merge(r.name, { head: 'refs/heads/topic' });
    expect(result.headSha).toBe(head);
    expect(await git(r.gitDir, 'log', '-1', '--format=%P%n%s', 'main')).toBe(`${result.baseBefore} ${head}\nMerge pull request 'Add things' (#1) from topic into main`);
    // Without a pull ref to fall back on, a missing head branch is not found.
    await expect(merge(r.name, { head: 'refs/heads/nothing', pullIndex: 0 })).rejects.toMatchObject({ reason: 'head_not_found' });
    await expect(merge(r.name, { head: 'refs/heads/topic', baseBranch: 'gone' })).rejects.toMatchObject({ reason: 'base_not_found' });
  });

  it('keeps a head in refs/pull/<index>/head for a pull whose branch is later deleted', async () => {
    const r = await diverged();
    const head = await r.branch('topic');
    expect(await updatePullRef(deps, await aliceRepo(r.name), 7, 'topic')).toBe(head);
    await run(['push', 'origin', ':topic'], r.work);
    expect(await countDiverging(deps, await aliceRepo(r.name), 'main', 'refs/pull/7/head')).toMatchObject({ ahead: 2, headSha: head });
  });
});

describe('the push event of a merge', () => {
  /** The newest push event of the repository's main branch, decoded. */
  async function lastPushOfMain(repositoryName: string) {
    const rows = await tb.db.outboxEvent.findMany({ where: { subject: 'repository.push' }, orderBy: { seq: 'desc' }, take: 20 });
    const pushes = rows.map((r) => decodeEvent<any>(r.type, r.payload)).filter((p) => p.repository?.name === repositoryName && p.ref === 'refs/heads/main');
    return pushes[0];
  }

  /** A head that adds nested files, changes one, removes one, makes a file executable and turns a file into a directory. */
  async function manyKindsOfChange() {
    const r = await repo();
    await r.commit('keep.txt', 'keep\n', 'keep');
    await r.commit('gone.txt', 'gone\n', 'gone');
    await r.commit('tool.sh', 'echo\n', 'tool');
    await r.commit('thing', 'a file\n', 'thing');
    await r.push('HEAD:main');
    await r.checkout('topic');
    await run(['rm', '-q', 'gone.txt', 'thing'], r.work);
    await chmod(join(r.work, 'tool.sh'), 0o755);
    await run(['add', 'tool.sh'], r.work);
    await run(['commit', '-q', '-m', 'remove and chmod'], r.work);
    await mkdir(join(r.work, 'thing'), { recursive: true });
    await mkdir(join(r.work, 'src/deep/er'), { recursive: true });
    await r.commit('thing/inside.txt', 'now a directory\n', 'dir');
    await r.commit('src/deep/er/a.ts', 'a\n', 'nested');
    await r.commit('src/b.ts', 'b\n', 'nested b');
    await r.commit('keep.txt', 'changed\n', 'change keep');
    await r.checkout('main', 'origin/main');
    await r.commit('z.txt', 'z\n', 'base moves');
    await r.push('topic', 'main');
    return r;
  }

  it('lists a merge by someone git writes differently (a name with trailing crud) as git stored it', async () => {
    const r = await manyKindsOfChange();
    const base = await r.branch('main');
    await tb.db.owner.update({ where: { id: 1n }, data: { full_name: ' Alice, the merger; ' } });
    try {
      const result = await merge(r.name, {});
      const [listed] = (await lastPushOfMain(r.name)).commits;
      const [git] = (await commitsBetween(r.gitDir, result.mergeCommitSha, [base], 100)).commits;
      expect(listed.author.name).toBe(git.authorName);
      expect(git.authorName).toBe('Alice, the merger');
      expect(listed.added).toEqual(git.added);
    } finally {
      await tb.db.owner.update({ where: { id: 1n }, data: { full_name: '' } });
    }
  });

  for (const style of ['merge', 'squash'] as const) {
    it(`lists the ${style} commit with the files it changes, as git log lists it for a push`, async () => {
      const r = await manyKindsOfChange();
      const base = await r.branch('main');
      const result = await merge(r.name, { style });
      const event = await lastPushOfMain(r.name);
      const byGit = await commitsBetween(r.gitDir, result.mergeCommitSha, [base], 100);
      expect(event).toMatchObject({ before: base, after: result.mergeCommitSha });
      expect(Number(event.total_commits)).toBe(byGit.total);
      expect(byGit.commits).toHaveLength(1);
      const [listed] = event.commits;
      const [git] = byGit.commits;
      expect({ id: listed.id, message: listed.message, author: listed.author.name, added: listed.added, removed: listed.removed, modified: listed.modified })
        .toEqual({ id: git.id, message: git.message, author: git.authorName, added: git.added, removed: git.removed, modified: git.modified });
      expect(listed.added).toEqual(['src/b.ts', 'src/deep/er/a.ts', 'thing/inside.txt']);
      expect(listed.removed).toEqual(['gone.txt', 'thing']);
      expect(listed.modified).toEqual(['keep.txt', 'tool.sh']);
    });
  }
});

describe('counting a merge\'s commits before its turn', () => {
  it('lists as many commits in the push event whether collaboration\'s last known base and head were current, stale or not commits at all', async () => {
    for (const hint of ['current', 'stale', 'unknown'] as const) {
      const r = await repo();
      await r.checkout('topic');
      await r.commit('a.txt', 'a\n', 'add a');
      const stale = await r.commit('b.txt', 'b\n', 'add b');
      await r.push('topic');
      await r.commit('c.txt', 'c\n', 'add c');
      await r.push('topic');
      const base = await r.branch('main');
      const head = await r.branch('topic');
      const known = { current: [base, head], stale: [base, stale], unknown: ['f'.repeat(40), 'e'.repeat(40)] }[hint];
      countAheadEarly(deps, 'alice', r.name, known[0], known[1]);
      const result = await merge(r.name, {});
      const event = (await tb.db.outboxEvent.findMany({ where: { subject: 'repository.push' }, orderBy: { seq: 'desc' }, take: 5 }))
        .map((row) => decodeEvent<any>(row.type, row.payload)).find((p) => p.repository?.name === r.name && p.after === result.mergeCommitSha);
      expect(Number(event.total_commits)).toBe(Number(await git(r.gitDir, 'rev-list', '--count', `${base}..${result.mergeCommitSha}`)));
      expect(Number(event.total_commits)).toBe(4);
    }
    // Names that are no repository's are left to the merge to refuse.
    expect(() => countAheadEarly(deps, '../alice', 'x', 'f'.repeat(40), 'e'.repeat(40))).not.toThrow();
  });
});

describe('the refs table after a merge', () => {
  it('writes just the rows the merge moved (the base, a deleted head branch), each as git would give it', async () => {
    const rows = gitRefRows(tb.db);
    let rewrites = 0;
    const counted = { ...rows, replace: (...args: Parameters<typeof rows.replace>) => { rewrites++; return rows.replace(...args); } };
    const lock: RepositoryWriteLock = new RepositoryWriteLock({ afterTurn: (owner, name) => refs.sync(owner, name) });
    const refs = new RefIndex(counted, tb.storage, { inTurn: (owner, name, w) => lock.run(owner, name, w) });
    const tracked: PullMergeDeps = { ...deps, pullGit: pullGit(tb.storage, refs) };
    for (const style of ['merge', 'squash', 'rebase', 'rebase-merge']) {
      const r = await repo();
      await r.checkout('topic');
      await r.commit('a.txt', 'a\n', 'add a\n\nwith a body');
      await r.checkout('main', 'origin/main');
      await r.commit('c.txt', 'c\n', 'add c');
      await r.push('topic', 'main', 'main:keep');
      await lock.run('alice', r.name, async () => {}); // the rows, written from git
      const before = rewrites;
      await lock.run('alice', r.name, async () => mergeToRef(tracked, await aliceRepo(r.name), {
        baseBranch: 'main', head: 'topic', style, message: '', expectedHeadSha: '', pullIndex: 1, pullTitle: 'Add things', deleteHeadBranch: 'topic',
      }, alice));
      expect(rewrites).toBe(before);
      expect((await refs.snapshot(r.gitDir))!.refs).toEqual(await readRefRows(r.gitDir));
      const repository = await tb.db.repository.findFirst({ where: { lower_name: r.name } });
      expect(repository!.branch_count).toBe(2);
    }
  }, 180_000);
});

describe('merging under branch protection', () => {
  it('refuses a reader, and lets a merge-whitelisted reader merge without write access', async () => {
    const r = await repo();
    await r.checkout('topic');
    await r.commit('a.txt', 'a\n');
    await r.push('topic');
    await expect(merge(r.name, {}, bob)).rejects.toMatchObject({ reason: 'not_allowed_to_merge', message: 'User not allowed to merge PR' });
    await createBranchProtection({ store: tb.deps.store, protections: deps.protections }, await aliceRepo(r.name), {
      ...DEFAULT_PROTECTION, ruleName: 'main', enableMergeWhitelist: true, mergeWhitelistUsernames: ['bob'],
    });
    const result = await merge(r.name, {}, bob);
    expect(await r.branch('main')).toBe(result.mergeCommitSha);
  });

  it('refuses a pull that changes a protected file, with the rule\'s message', async () => {
    const r = await repo();
    await createBranchProtection({ store: tb.deps.store, protections: deps.protections }, await aliceRepo(r.name), {
      ...DEFAULT_PROTECTION, ruleName: 'main', enablePush: true, protectedFilePatterns: '*.lock',
    });
    await r.checkout('topic');
    await r.commit('deps.lock', 'pinned\n');
    await r.push('topic');
    const before = await r.branch('main');
    await expect(merge(r.name, {})).rejects.toMatchObject({ reason: 'push_rejected', message: 'branch main is protected from changing file deps.lock' });
    expect(await r.branch('main')).toBe(before);
  });
});

describe('a merge racing a push', () => {
  it('answers push out of date when the base moved during the merge, and writes nothing', async () => {
    const r = await repo();
    await r.checkout('topic');
    await r.commit('a.txt', 'a\n');
    await r.checkout('main', 'origin/main');
    const pushed = await r.commit('z.txt', 'z\n');
    await r.push('topic');
    // Another replica's push lands between the merge's build and its update-ref.
    const racing: PullMergeDeps = {
      ...deps,
      pullGit: (owner, name) => {
        const real = pullGitOf(tb.storage.pathOf(owner, name), tb.storage.objects(tb.storage.pathOf(owner, name)));
        return {
          ...real,
          updateRefs: async (moves) => {
            if (moves.some((m) => m.ref === 'refs/heads/main')) await r.push('main');
            return real.updateRefs(moves);
          },
        };
      },
    };
    await expect(mergeToRef(racing, await aliceRepo(r.name), {
      baseBranch: 'main', head: 'topic', style: 'merge', message: '', expectedHeadSha: '', pullIndex: 1, pullTitle: 't', deleteHeadBranch: '',
    }, alice)).rejects.toMatchObject({ kind: 'conflict', reason: 'push_out_of_date' });
    expect(await r.branch('main')).toBe(pushed);
    expect((await run(['rev-parse', '--verify', 'refs/pull/1/head'], r.gitDir)).code).toBe(1);
  });

  it('lands every one of 8 concurrent merges into one base in the write turn, losing no commit', async () => {
    const r = await repo();
    const heads: string[] = [];
    for (let i = 0; i < 8; i++) {
      await r.checkout(`topic${i}`, 'origin/main');
      heads.push(await r.commit(`f${i}.txt`, `${i}\n`));
    }
    await r.push(...heads.map((_, i) => `topic${i}`));
    const lock = new RepositoryWriteLock();
    await Promise.all(heads.map((_, i) => lock.run('alice', r.name, () => merge(r.name, { head: `topic${i}`, pullIndex: i + 1 }))));
    for (const head of heads) expect((await run(['merge-base', '--is-ancestor', head, 'main'], r.gitDir)).code).toBe(0);
  });
});
