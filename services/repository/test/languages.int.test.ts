// Language statistics over real PostgreSQL and real git: computed once per commit and
// cached, the repository's `language` set to the top one, stats gone with the repository.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getLanguages, refreshLanguages, type LanguageDeps } from '../src/domain/language-stats.js';
import { createRepository, deleteRepository, type RepositoryDeps, resolveRepository } from '../src/domain/repositories.js';
import { languageGit } from '../src/git/language-git.js';
import { linguistTable } from '../src/git/linguist-table.js';
import { commitInitialFiles } from '../src/git/refs.js';
import type { RepositoryStorage } from '../src/git/storage.js';
import type { RepositoryDb } from '../src/store/db.js';
import { languageStatsStore } from '../src/store/languages.js';
import { caller, repositoryTestbed, type RepositoryTestbed } from './support/testbed.js';

let tb: RepositoryTestbed;
let db: RepositoryDb;
let storage: RepositoryStorage;
let repos: RepositoryDeps;
let languages: LanguageDeps;
const ada = caller(1, 'ada');

beforeAll(async () => {
  tb = await repositoryTestbed('lang');
  ({ db, storage, deps: repos } = tb);
  languages = { store: repos.store, stats: languageStatsStore(db), git: languageGit(storage), table: linguistTable() };
  await tb.owner(1, 'ada');
}, 30_000);

afterAll(() => tb?.close());

describe('language statistics', () => {
  it('are computed for the default branch, cached by commit, and set the repository\'s language', async () => {
    const created = await createRepository(repos, { owner_id: 1, name: 'calc', description: '', private: false, default_branch: '', auto_init: false, readme: '', template: false, object_format_name: '' }, ada);
    const gitDir = storage.pathOf('ada', 'calc');
    const commit = await commitInitialFiles(gitDir, 'main', { 'main.py': 'print(1)\n', 'util.go': 'package util\n\n// x\n' }, 'Add\n', { name: 'Ada', email: 'ada@example.com' });
    await db.repository.update({ where: { id: BigInt(created.repository.id) }, data: { empty: false } });

    expect(await getLanguages(languages, await resolveRepository(repos.store, 'ada', 'calc', ada))).toEqual([['Go', 19], ['Python', 9]]);
    const row = await db.languageStats.findUnique({ where: { repository_id_commit_sha: { repository_id: BigInt(created.repository.id), commit_sha: commit } } });
    expect(row?.languages).toEqual({ Go: 19, Python: 9 });
    expect((await db.repository.findUnique({ where: { id: BigInt(created.repository.id) } }))?.language).toBe('Go');

    // A commit's statistics never change: this process answers from memory, and another
    // process (a fresh store) reads the row back rather than recomputing — change it and see.
    await db.languageStats.update({ where: { repository_id_commit_sha: { repository_id: BigInt(created.repository.id), commit_sha: commit } }, data: { languages: { Go: 1 } } });
    const calc = await resolveRepository(repos.store, 'ada', 'calc', ada);
    expect(await getLanguages(languages, calc)).toEqual([['Go', 19], ['Python', 9]]);
    expect(await getLanguages({ ...languages, stats: languageStatsStore(db) }, calc)).toEqual([['Go', 1]]);

    await deleteRepository(repos, await resolveRepository(repos.store, 'ada', 'calc', ada), ada);
    expect(await db.languageStats.count({ where: { repository_id: BigInt(created.repository.id) } })).toBe(0);
  });

  it('keep only the newest pushed commit\'s statistics, and the repository\'s language follows the push that changes it', async () => {
    const created = await createRepository(repos, { owner_id: 1, name: 'shift', description: '', private: false, default_branch: '', auto_init: false, readme: '', template: false, object_format_name: '' }, ada);
    const id = BigInt(created.repository.id);
    const gitDir = storage.pathOf('ada', 'shift');
    const who = { name: 'Ada', email: 'ada@example.com' };
    const pushed = { id: created.repository.id, ownerLogin: 'ada', name: 'shift' };
    const first = await commitInitialFiles(gitDir, 'main', { 'a.py': 'print(1)\n' }, 'Python\n', who);
    await refreshLanguages(languages, pushed, first);
    expect((await db.repository.findUnique({ where: { id } }))?.language).toBe('Python');

    const second = await commitInitialFiles(gitDir, 'next', { 'b.go': 'package b\n\n// longer than the Python\n' }, 'Go\n', who);
    await refreshLanguages(languages, pushed, second);
    expect(await db.languageStats.findMany({ where: { repository_id: id }, select: { commit_sha: true, languages: true } }))
      .toEqual([{ commit_sha: second, languages: { Go: 37 } }]);
    expect((await db.repository.findUnique({ where: { id } }))?.language).toBe('Go');
  });

  it('are computed for a pushed commit without asking the table first, unless this process already knows them', async () => {
    const created = await createRepository(repos, { owner_id: 1, name: 'fresh', description: '', private: false, default_branch: '', auto_init: false, readme: '', template: false, object_format_name: '' }, ada);
    const id = BigInt(created.repository.id);
    const gitDir = storage.pathOf('ada', 'fresh');
    const pushed = { id: created.repository.id, ownerLogin: 'ada', name: 'fresh' };
    const commit = await commitInitialFiles(gitDir, 'main', { 'a.rb': 'puts 1\n' }, 'Ruby\n', { name: 'Ada', email: 'ada@example.com' });
    // A row the push computes past: had the refresh read it first, it would keep it.
    await db.languageStats.create({ data: { repository_id: id, commit_sha: commit, languages: { Go: 1 } } });
    const stats = languageStatsStore(db);
    await refreshLanguages({ ...languages, stats }, pushed, commit);
    const row = () => db.languageStats.findUnique({ where: { repository_id_commit_sha: { repository_id: id, commit_sha: commit } } });
    expect((await row())?.languages).toEqual({ Ruby: 7 });

    // Known to this process now: a redelivered push computes nothing again.
    await db.languageStats.update({ where: { repository_id_commit_sha: { repository_id: id, commit_sha: commit } }, data: { languages: { Go: 2 } } });
    await refreshLanguages({ ...languages, stats }, pushed, commit);
    expect((await row())?.languages).toEqual({ Go: 2 });
  });
});
