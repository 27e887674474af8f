// Language statistics over real PostgreSQL and real git: computed once per commit and
// cached, the repository's `language` set to the top one, stats gone with the repository.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getLanguages, refreshLanguages, type LanguageDeps } from '../src/domain/language-stats.js';
import type { IndexChange } from '../src/domain/commit-writing.js';
import { writeCommit } from '../src/git/file-changes-git.js';
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

  it('follow a push from the previous head\'s and the files it changed, equal to counting the whole tree, which is done only where the change cannot tell', async () => {
    const created = await createRepository(repos, { owner_id: 1, name: 'grow', description: '', private: false, default_branch: '', auto_init: false, readme: '', template: false, object_format_name: '' }, ada);
    const id = created.repository.id;
    const gitDir = storage.pathOf('ada', 'grow');
    const pushed = { id, ownerLogin: 'ada', name: 'grow' };
    const objects = storage.objects(gitDir);
    const file = (path: string, text: string, mode = '100644'): IndexChange => ({ path, mode, content: Buffer.from(text) });
    const gone = (path: string): IndexChange => ({ path, remove: true });
    let time = 1_700_000_000;
    const commitOn = async (parent: string | undefined, changes: IndexChange[]) => (await writeCommit(gitDir, {
      parent, changes, message: 'Change\n', author: { name: 'Ada', email: 'ada@example.com', time: ++time }, committer: { name: 'Ada', email: 'ada@example.com', time }, objectFormat: 'sha1',
    }, (oid) => objects.object(oid))).commitSha;
    // Counting the whole tree: a store that knows nothing, so it lists every file.
    const counted = async (commit: string) => {
      await refreshLanguages({ ...languages, stats: languageStatsStore(db) }, pushed, commit);
      return (await db.languageStats.findUnique({ where: { repository_id_commit_sha: { repository_id: BigInt(id), commit_sha: commit } } }))?.languages;
    };
    let listed = 0;
    const stats = languageStatsStore(db);
    const following: LanguageDeps = { ...languages, stats, git: { ...languages.git, listTreeFiles: (dir, commit) => (listed++, languages.git.listTreeFiles(dir, commit)) } };

    let head = await commitOn(undefined, [file('src/a.go', 'package a\n'), file('b.py', 'print(1)\n'), file('docs/c.py', 'x\n')]);
    await refreshLanguages(following, pushed, head, '0'.repeat(40));
    expect(listed).toBe(1);
    // Each step: [the change, whether its sizes follow from the parent's without a listing].
    const steps: Array<[IndexChange[], boolean]> = [
      [[file('src/d.ts', 'export const d = 1;\n')], true], // a new language
      [[file('src/a.go', 'package a\n\nfunc A() {}\n')], true], // modified, grows
      [[file('vendor/x.go', 'package x\n'), file('README.md', '# r\n'), file('.eslintrc.js', 'x\n')], true], // left out: no change
      [[gone('b.py'), file('src/e.py', 'print(2)\n')], true], // a rename: Python unchanged
      [[file('link.go', 'src/a.go', '120000')], true], // a symlink: not a regular file
      [[gone('src/d.ts')], false], // a language gone: maybe empty files keep it, so counted
      [[file('.gitattributes', '*.go linguist-language=Rust\n')], false], // attributes change what counts
      [[file('more.go', 'package more\n')], false], // a tree with .gitattributes is always counted
      [[gone('.gitattributes')], false],
      [[gone('src/a.go'), gone('src/e.py'), gone('more.go'), gone('link.go'), file('data.json', '{}\n')], false], // only a fallback left
      [[file('z.rs', 'fn main() {}\n')], false], // the parent was a fallback
      [[file('y.rs', 'fn y() {}\n')], true],
    ];
    for (const [changes, follows] of steps) {
      const before = head;
      head = await commitOn(before, changes);
      listed = 0;
      await refreshLanguages(following, pushed, head, before);
      const followed = (await db.languageStats.findUnique({ where: { repository_id_commit_sha: { repository_id: BigInt(id), commit_sha: head } } }))?.languages;
      expect({ changes, listed }).toEqual({ changes, listed: follows ? 0 : 1 });
      expect({ changes, followed }).toEqual({ changes, followed: await counted(head) });
    }
    // A previous head that is no commit here (gone since a force push) is no reason to fail.
    const lost = await commitOn(head, [file('v.rs', 'fn v() {}\n')]);
    await stats.save(id, 'f'.repeat(40), new Map([['Rust', 1]]), 'Rust', true);
    listed = 0;
    await refreshLanguages(following, pushed, lost, 'f'.repeat(40));
    expect(listed).toBe(1);
    expect((await db.languageStats.findUnique({ where: { repository_id_commit_sha: { repository_id: BigInt(id), commit_sha: lost } } }))?.languages).toEqual(await counted(lost));
    // A process that did not compute the previous head itself counts the whole tree.
    const next = await commitOn(lost, [file('w.rs', 'fn w() {}\n')]);
    const other = languageStatsStore(db);
    let listedByOther = 0;
    await refreshLanguages({ ...languages, stats: other, git: { ...languages.git, listTreeFiles: (dir, c) => (listedByOther++, languages.git.listTreeFiles(dir, c)) } }, pushed, next, lost);
    expect(listedByOther).toBe(1);
  });
});
