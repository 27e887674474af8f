// Repository rules (docs/repositories-checklist.md) proven over
// real PostgreSQL and git: names Gitea accepts that the storage once refused (`.profile`),
// names Gitea refuses (`a..b`), rename errors with Gitea's messages, and FORCE_PRIVATE on edit.
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRepository, editRepository, type RepositoryDeps, resolveRepository } from '../src/domain/repositories.js';
import { listRefs } from '../src/git/refs.js';
import type { RepositoryStorage } from '../src/git/storage.js';
import type { RepositoryDb } from '../src/store/db.js';
import { caller, repositoryTestbed, type RepositoryTestbed } from './support/testbed.js';

let tb: RepositoryTestbed;
let db: RepositoryDb;
let dir: string;
let storage: RepositoryStorage;
let deps: RepositoryDeps;
let forced: RepositoryDeps;
let owner: RepositoryTestbed['owner'];

const siteAdmin = caller(1000, 'root', true);

const input = (ownerId: number, name: string, extra: Partial<Parameters<typeof createRepository>[1]> = {}) => ({
  owner_id: ownerId, name, description: '', private: false, default_branch: '', auto_init: false, readme: '', template: false, object_format_name: '', ...extra,
});

beforeAll(async () => {
  tb = await repositoryTestbed('audit');
  ({ db, dir, storage, deps, owner } = tb);
  forced = { ...deps, settings: { ...deps.settings, forcePrivate: true } };
}, 30_000);

afterAll(() => tb?.close(), 30_000);

describe('repository names over PostgreSQL and git', () => {
  it('creates and renames repositories whose name starts with a dot, as Gitea allows (`.profile`)', async () => {
    const ann = await owner(1, 'ann');
    const access = await createRepository(deps, input(1, '.profile', { auto_init: true }), ann);
    expect(access.repository).toMatchObject({ name: '.profile', empty: false });
    expect([...(await listRefs(storage.pathOf('ann', '.profile'))).keys()]).toEqual(['refs/heads/main']);
    await editRepository(deps, await resolveRepository(deps.store, 'ann', '.profile', ann), { name: '.github' }, ann);
    expect(await readdir(join(dir, 'repositories', 'ann'))).toEqual(['.github.git']);
  });

  it('refuses runs of dots and a leading dash with 422 and leaves neither a row nor a directory', async () => {
    const ben = await owner(2, 'ben');
    await expect(createRepository(deps, input(2, 'a..b'), ben)).rejects.toMatchObject({
      kind: 'invalid', message: 'name is invalid [a..b]: must be valid alpha or numeric or dash(-_) or dot characters',
    });
    await expect(createRepository(deps, input(2, '-rf'), ben)).rejects.toMatchObject({ kind: 'invalid', reason: 'repo_name_chars_not_allowed' });
    expect(await db.repository.count({ where: { owner_id: 2n } })).toBe(0);
    await expect(stat(join(dir, 'repositories', 'ben'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('answers a rename with Gitea\'s messages: taken, reserved, refused pattern', async () => {
    const cat = await owner(3, 'cat');
    await createRepository(deps, input(3, 'first'), cat);
    await createRepository(deps, input(3, 'second'), cat);
    await expect(editRepository(deps, await resolveRepository(deps.store, 'cat', 'first', cat), { name: 'SECOND' }, cat)).rejects.toMatchObject({
      kind: 'already_exists', reason: 'repo_exists', message: 'repo name is already taken [name: SECOND]',
    });
    await expect(editRepository(deps, await resolveRepository(deps.store, 'cat', 'first', cat), { name: '-' }, cat)).rejects.toMatchObject({ kind: 'invalid', message: 'repo name is reserved [name: -]' });
    await expect(editRepository(deps, await resolveRepository(deps.store, 'cat', 'first', cat), { name: 'first.wiki' }, cat)).rejects.toMatchObject({
      kind: 'invalid', message: 'repo name\'s pattern is not allowed [name: first.wiki, pattern: *.wiki]',
    });
    expect((await stat(storage.pathOf('cat', 'first'))).isDirectory()).toBe(true);
  });
});

describe('FORCE_PRIVATE on edit', () => {
  it('refuses to publish for owners, lets site admins publish, and never hides a public repository on its own', async () => {
    const dan = await owner(4, 'dan');
    const made = await createRepository(forced, input(4, 'hidden'), dan);
    expect(made.repository.private).toBe(true);
    await expect(editRepository(forced, await resolveRepository(forced.store, 'dan', 'hidden', dan), { private: false }, dan)).rejects.toMatchObject({
      kind: 'invalid', message: 'cannot change private repository to public',
    });
    expect((await editRepository(forced, await resolveRepository(forced.store, 'dan', 'hidden', dan), { private: true, description: 'x' }, dan)).repository).toMatchObject({ private: true, description: 'x' });
    expect((await editRepository(forced, await resolveRepository(forced.store, 'dan', 'hidden', siteAdmin), { private: false }, siteAdmin)).repository.private).toBe(false);
    // Made public by an admin (or before the switch), an edit that repeats `private: false` keeps it public.
    expect((await editRepository(forced, await resolveRepository(forced.store, 'dan', 'hidden', dan), { private: false, description: 'y' }, dan)).repository.private).toBe(false);
    expect((await editRepository(forced, await resolveRepository(forced.store, 'dan', 'hidden', dan), { private: true }, dan)).repository.private).toBe(true);
  });
});
