// Integration test over real PostgreSQL and git: creation with gitignore/license templates
// writes them into the first commit (and unknown names create nothing), and local
// adoption lists, adopts and deletes bare repositories in the storage root, never
// following a symlink out of it.
import { mkdir, mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Caller } from '@anvil/kit';
import { decodeEvent } from '@anvil/proto';
import { createRepository, type RepositoryDeps } from '../src/domain/repositories.js';
import { adoptRepository, deleteUnadopted, listUnadopted, type UnadoptedDeps } from '../src/domain/unadopted.js';
import { git, runGit } from '../src/git/command.js';
import { templateCatalog } from '../src/git/init-files.js';
import { commitInitialFiles } from '../src/git/refs.js';
import type { RepositoryStorage } from '../src/git/storage.js';
import { unadoptedGit } from '../src/git/unadopted.js';
import type { RepositoryDb } from '../src/store/db.js';
import { unadoptedRows } from '../src/store/unadopted.js';
import { caller, repositoryTestbed, type RepositoryTestbed } from './support/testbed.js';

let tb: RepositoryTestbed;
let db: RepositoryDb;
let storage: RepositoryStorage;
let deps: RepositoryDeps;
let adoption: UnadoptedDeps;
let owner: RepositoryTestbed['owner'];

const admin: Caller = { userId: 99, login: 'root', isAdmin: true, restricted: false, scopes: ['all'] };
const who = { name: 'Importer', email: 'importer@example.com' };

const input = (ownerId: number, name: string, extra: Partial<Parameters<typeof createRepository>[1]> = {}) => ({
  owner_id: ownerId, name, description: '', private: false, default_branch: '', auto_init: true, readme: '', template: false, object_format_name: '', ...extra,
});

async function show(owner: string, name: string, path: string): Promise<string> {
  return runGit(git('show', { gitDir: storage.pathOf(owner, name) }).arg(`HEAD:${path}`).build());
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

/** Bare git data in the storage root with no row: what an administrator copies in. */
async function bareRepository(owner: string, name: string, branch?: string): Promise<string> {
  const path = await storage.init(owner, name, branch ?? 'main');
  if (branch) await commitInitialFiles(path, branch, { 'hello.txt': 'hello\n' }, 'Imported\n', who);
  return path;
}

beforeAll(async () => {
  tb = await repositoryTestbed('templates');
  ({ db, storage, owner } = tb);
  deps = { ...tb.deps, templates: templateCatalog() };
  adoption = { store: deps.store, rows: unadoptedRows(db), git: unadoptedGit(storage), settings: deps.settings };
}, 30_000);

afterAll(() => tb?.close(), 30_000);

describe('creating a repository from templates', () => {
  it('commits README.md, the joined .gitignore and a filled-in LICENSE', async () => {
    const ada = await owner(1, 'Ada');
    await createRepository(deps, input(1, 'Parser', { description: 'Parses', gitignores: 'Node,Go', license: 'MIT' }), ada);
    expect(await show('ada', 'parser', 'README.md')).toBe('# Parser\n\nParses\n');
    const gitignore = await show('ada', 'parser', '.gitignore');
    expect(gitignore.startsWith('# ---> Node\n')).toBe(true);
    expect(gitignore).toContain('\n# ---> Go\n');
    expect(gitignore).toContain('node_modules/');
    expect(await show('ada', 'parser', 'LICENSE')).toContain(`Copyright (c) ${new Date().getFullYear()} Ada\n`);
  });

  it('ignores the templates without auto_init, as Gitea does', async () => {
    await owner(2, 'bob');
    const access = await createRepository(deps, input(2, 'blank', { auto_init: false, gitignores: 'Nope', license: 'Nope' }), caller(2, 'bob'));
    expect(access.repository.empty).toBe(true);
  });

  it('refuses unknown template names and creates neither the row nor the directory', async () => {
    const cy = await owner(3, 'cy');
    await expect(createRepository(deps, input(3, 'odd', { gitignores: 'Node,Klingon' }), cy)).rejects.toMatchObject({ kind: 'invalid', reason: 'gitignore_template_not_found' });
    await expect(createRepository(deps, input(3, 'odd', { license: 'WTFPL-9' }), cy)).rejects.toMatchObject({ kind: 'invalid', reason: 'license_template_not_found' });
    await expect(createRepository(deps, input(3, 'odd', { readme: 'Fancy' }), cy)).rejects.toMatchObject({ kind: 'bad_request' });
    expect(await db.repository.count({ where: { lower_name: 'odd' } })).toBe(0);
    expect(await exists(join(storage.root, 'cy', 'odd.git'))).toBe(false);
  });
});

describe('local adoption', () => {
  it('lists bare repositories without a row, only for site admins, filtered by pattern', async () => {
    await owner(10, 'dora');
    await owner(11, 'eve');
    await bareRepository('dora', 'imported', 'trunk');
    await bareRepository('eve', 'other');
    await bareRepository('ghost', 'orphan'); // no such owner: skipped
    await createRepository(deps, input(10, 'adopted-already'), caller(10, 'dora'));

    const all = await listUnadopted(adoption, '', 0, 50, admin);
    expect(all.names).toEqual(expect.arrayContaining(['dora/imported', 'eve/other']));
    expect(all.names).not.toContain('dora/adopted-already');
    expect(all.names).not.toContain('ghost/orphan');
    expect(await listUnadopted(adoption, 'dora', 0, 50, admin)).toEqual({ names: ['dora/imported'], total: 1 });
    expect(await listUnadopted(adoption, '*/oth*', 0, 50, admin)).toEqual({ names: ['eve/other'], total: 1 });
    const firstPage = await listUnadopted(adoption, '', 0, 1, admin);
    expect([firstPage.names.length, firstPage.total]).toEqual([1, all.total]);
    await expect(listUnadopted(adoption, '', 0, 50, caller(10, 'dora'))).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it('adopts one: a private row on the branch HEAD names, with repository.repo.created', async () => {
    const access = await adoptRepository(adoption, 'Dora', 'imported', admin);
    expect(access.repository).toMatchObject({ name: 'imported', owner_login: 'dora', default_branch: 'trunk', empty: false, private: true, object_format_name: 'sha1' });
    expect(access.repository.size).toBeGreaterThan(0);
    const created = (await db.outboxEvent.findMany({ where: { subject: 'repository.repo.created' } }))
      .map((r) => decodeEvent<any>(r.type, r.payload)).find((e) => e.repository.id === access.repository.id);
    expect(created).toMatchObject({ repository: { name: 'imported', empty: false }, actor_id: admin.userId });
    expect((await listUnadopted(adoption, 'dora', 0, 50, admin)).names).toEqual([]);
    await expect(adoptRepository(adoption, 'dora', 'imported', admin)).rejects.toMatchObject({ kind: 'already_exists' });
    await expect(deleteUnadopted(adoption, 'dora', 'imported', admin)).rejects.toMatchObject({ kind: 'already_exists' });
  });

  it('adopts git data without branches as an empty repository', async () => {
    const access = await adoptRepository(adoption, 'eve', 'other', admin);
    expect(access.repository).toMatchObject({ empty: true, default_branch: 'main' });
  });

  it('answers not found for a missing owner or directory, and refuses unusable names', async () => {
    await expect(adoptRepository(adoption, 'nobody', 'x', admin)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(adoptRepository(adoption, 'dora', 'missing', admin)).rejects.toMatchObject({ kind: 'not_found' });
    await expect(deleteUnadopted(adoption, 'dora', 'missing', admin)).rejects.toMatchObject({ kind: 'not_found' });
    for (const name of ['..', '../eve', 'a/b', 'x.git']) {
      await expect(adoptRepository(adoption, 'dora', name, admin)).rejects.toMatchObject({ kind: 'invalid' });
      await expect(deleteUnadopted(adoption, 'dora', name, admin)).rejects.toMatchObject({ kind: 'invalid' });
    }
    await expect(adoptRepository(adoption, 'dora', 'imported', caller(10, 'dora'))).rejects.toMatchObject({ kind: 'forbidden' });
  });

  it('never follows a symlink: neither a linked repository nor a linked owner directory', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'anvil-outside-'));
    try {
      await runGit(git('init').flag('--bare', '--quiet').afterEndOfOptions(join(outside, 'secret.git')).build());
      await symlink(join(outside, 'secret.git'), join(storage.root, 'dora', 'linked.git'));
      await owner(12, 'frank');
      await symlink(outside, join(storage.root, 'frank'));
      expect((await listUnadopted(adoption, '', 0, 50, admin)).names.filter((n) => n.includes('linked') || n.includes('secret'))).toEqual([]);
      await expect(adoptRepository(adoption, 'dora', 'linked', admin)).rejects.toMatchObject({ kind: 'not_found' });
      await expect(adoptRepository(adoption, 'frank', 'secret', admin)).rejects.toMatchObject({ kind: 'not_found' });
      await expect(deleteUnadopted(adoption, 'frank', 'secret', admin)).rejects.toMatchObject({ kind: 'not_found' });
      expect(await exists(join(outside, 'secret.git', 'HEAD'))).toBe(true);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('deletes an unadopted directory', async () => {
    const path = await bareRepository('eve', 'leftover');
    await mkdir(join(path, 'objects', 'pack'), { recursive: true });
    await deleteUnadopted(adoption, 'eve', 'leftover', admin);
    expect(await exists(path)).toBe(false);
  });
});
