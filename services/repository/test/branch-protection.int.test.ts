// Integration test: branch protection over real PostgreSQL and real git — `git push` into a
// bare repository whose receive-pack runs the service's pre-receive hook, which asks the
// PreReceiveHooks endpoint over HTTP; refused pushes leave the branch where it was.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createBranchProtection, DEFAULT_PROTECTION } from '../src/domain/branch-protections.js';
import { createRepository, editRepository, resolveRepository, type RepositoryDeps } from '../src/domain/repositories.js';
import { RefUpdateConflict, updateRef } from '../src/git/branches.js';
import { listRefs } from '../src/git/refs.js';
import type { RepositoryStorage } from '../src/git/storage.js';
import { PreReceiveHooks } from '../src/git-http/pre-receive.js';
import { branchProtectionStore } from '../src/store/branch-protections.js';
import type { RepositoryDb } from '../src/store/db.js';
import { repositoryTestbed, type RepositoryTestbed } from './support/testbed.js';

jest.setTimeout(60_000);

let tb: RepositoryTestbed;
let db: RepositoryDb;
let dir: string;
let storage: RepositoryStorage;
let deps: RepositoryDeps;
let hooks: PreReceiveHooks;
let server: Server;
let owner: RepositoryTestbed['owner'];

function run(args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ code: number; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    execFile('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], {
      cwd, env: { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: '1', LANG: 'C', ...env },
    }, (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }));
  });
}

/** `git push` into the bare repository through receive-pack with the service's hooks, as `pusher`. */
async function pushAs(work: string, gitDir: string, repositoryId: number, pusher: { id: number; login: string }, ...refspecs: string[]) {
  const session = hooks.begin({ repositoryId, gitDir, pusher: { ...pusher, permission: 'write' } });
  try {
    return await run(['push', `--receive-pack=git -c core.hooksPath=${hooks.hooksDir} receive-pack`, gitDir, ...refspecs], work, session.env);
  } finally {
    session.end();
  }
}

beforeAll(async () => {
  tb = await repositoryTestbed('protection');
  ({ db, dir, storage, deps, owner } = tb);
  // No signed commits reach identity here: an unsigned commit is refused without asking.
  const signatures = { verify: async (commits: readonly unknown[]) => commits.map(() => ({ verified: false, reason: 'gpg.error.no_gpg_keys_found' })) };
  hooks = new PreReceiveHooks(join(dir, 'hooks'), { store: deps.store, protections: branchProtectionStore(db), signatures, log: tb.log });
  await hooks.install();
  server = createServer((req, res) => void hooks.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  hooks.listenOn('127.0.0.1', typeof address === 'object' && address ? address.port : 0);
}, 30_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await tb?.close();
}, 30_000);

describe('the pre-receive hook with real git', () => {
  it('refuses a push to a protected branch and accepts the whitelisted pusher', async () => {
    const alice = await owner(1, 'alice');
    await owner(2, 'bob');
    const { repository } = await createRepository(deps, {
      owner_id: 1, name: 'guarded', description: '', private: false, default_branch: '', auto_init: true, readme: '', template: false, object_format_name: '',
    }, alice);
    await createBranchProtection({ store: deps.store, protections: branchProtectionStore(db) }, await resolveRepository(deps.store, 'alice', 'guarded', alice), {
      ...DEFAULT_PROTECTION, ruleName: 'main', enablePush: true, enablePushWhitelist: true, pushWhitelistUsernames: ['bob'],
    });
    const gitDir = storage.pathOf('alice', 'guarded');
    const before = (await listRefs(gitDir)).get('refs/heads/main');

    expect((await run(['clone', gitDir, 'work'], dir)).code).toBe(0);
    const work = join(dir, 'work');
    await writeFile(join(work, 'a.txt'), 'a\n');
    await run(['add', 'a.txt'], work);
    await run(['commit', '-m', 'change'], work);

    const refused = await pushAs(work, gitDir, repository.id, { id: 1, login: 'alice' }, 'HEAD:refs/heads/main');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Not allowed to push to protected branch main');
    expect((await listRefs(gitDir)).get('refs/heads/main')).toBe(before);

    // A new unprotected branch goes through for anyone with write access.
    expect((await pushAs(work, gitDir, repository.id, { id: 1, login: 'alice' }, 'HEAD:refs/heads/topic')).code).toBe(0);

    const accepted = await pushAs(work, gitDir, repository.id, { id: 2, login: 'bob' }, 'HEAD:refs/heads/main');
    expect(accepted.stderr).not.toContain('protected');
    expect(accepted.code).toBe(0);
    expect((await listRefs(gitDir)).get('refs/heads/main')).toBe((await run(['rev-parse', 'HEAD'], work)).stdout.trim());
  });

  it('refuses unsigned commits when the rule requires signed commits', async () => {
    const carol = await owner(3, 'carol');
    const { repository } = await createRepository(deps, {
      owner_id: 3, name: 'signed', description: '', private: false, default_branch: '', auto_init: true, readme: '', template: false, object_format_name: '',
    }, carol);
    await createBranchProtection({ store: deps.store, protections: branchProtectionStore(db) }, await resolveRepository(deps.store, 'carol', 'signed', carol), {
      ...DEFAULT_PROTECTION, ruleName: 'ma*', enablePush: true, requireSignedCommits: true,
    });
    const gitDir = storage.pathOf('carol', 'signed');
    expect((await run(['clone', gitDir, 'signed-work'], dir)).code).toBe(0);
    const work = join(dir, 'signed-work');
    await writeFile(join(work, 'b.txt'), 'b\n');
    await run(['add', 'b.txt'], work);
    await run(['commit', '-m', 'unsigned'], work);
    const sha = (await run(['rev-parse', 'HEAD'], work)).stdout.trim();
    const refused = await pushAs(work, gitDir, repository.id, { id: 3, login: 'carol' }, 'HEAD:refs/heads/main');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(`branch main is protected from unverified commit ${sha}`);
  });

  it('refuses every push, tags included, to an archived repository', async () => {
    const dave = await owner(4, 'dave');
    const { repository } = await createRepository(deps, {
      owner_id: 4, name: 'attic', description: '', private: false, default_branch: '', auto_init: true, readme: '', template: false, object_format_name: '',
    }, dave);
    await editRepository(deps, await resolveRepository(deps.store, 'dave', 'attic', dave), { archived: true }, dave);
    const gitDir = storage.pathOf('dave', 'attic');
    expect((await run(['clone', gitDir, 'attic-work'], dir)).code).toBe(0);
    const work = join(dir, 'attic-work');
    await run(['tag', 'v1'], work);
    const refused = await pushAs(work, gitDir, repository.id, { id: 4, login: 'dave' }, 'refs/tags/v1');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('This repo is archived');
    expect((await run(['tag', '--list'], gitDir)).stdout.trim()).toBe('');
  });

  it('moves refs only from the expected old value, so a concurrent writer is never overwritten', async () => {
    const gitDir = storage.pathOf('alice', 'guarded');
    const refs = await listRefs(gitDir);
    const main = refs.get('refs/heads/main')!;
    const topic = refs.get('refs/heads/topic')!;
    // Someone else moved topic from `main` meanwhile: updating it from a stale value fails.
    await expect(updateRef(gitDir, 'refs/heads/topic', main, '1'.repeat(40))).rejects.toBeInstanceOf(RefUpdateConflict);
    await expect(updateRef(gitDir, 'refs/heads/new', main, '0'.repeat(40))).resolves.toBeUndefined();
    await expect(updateRef(gitDir, 'refs/heads/new', topic, '0'.repeat(40))).rejects.toBeInstanceOf(RefUpdateConflict);
  });
});
