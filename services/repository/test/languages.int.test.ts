// Language statistics over real PostgreSQL and real git: computed once per commit and
// cached, the repository's `language` set to the top one, stats gone with the repository.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { applyMigrations, createLogger, dropDatabase, type Caller } from '@anvil/kit';
import { getLanguages, type LanguageDeps } from '../src/domain/language-stats.js';
import { createRepository, deleteRepository, type RepositoryDeps } from '../src/domain/repositories.js';
import { gitStorage } from '../src/git/git-storage.js';
import { languageGit } from '../src/git/language-git.js';
import { linguistTable } from '../src/git/linguist-table.js';
import { commitInitialFiles } from '../src/git/refs.js';
import { RepositoryStorage } from '../src/git/storage.js';
import { createDb, type RepositoryDb } from '../src/store/db.js';
import { languageStatsStore } from '../src/store/languages.js';
import { repositoryStore } from '../src/store/repositories.js';
import { withDatabase } from '../../../test/support/isolation.js';

process.env.ANVIL_LOG_LEVEL ??= 'silent';
const log = createLogger('repository-test');
const PG_URL = process.env.ANVIL_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const RUN_ID = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const databaseUrl = withDatabase(PG_URL, `anvil_repository_lang_test_${RUN_ID}`);

let db: RepositoryDb;
let dir: string;
let storage: RepositoryStorage;
let repos: RepositoryDeps;
let languages: LanguageDeps;
const ada: Caller = { userId: 1, login: 'ada', isAdmin: false, restricted: false, scopes: ['all'] };

beforeAll(async () => {
  await applyMigrations({ databaseUrl, migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), log });
  db = createDb(databaseUrl);
  dir = await mkdtemp(join(tmpdir(), 'anvil-lang-int-'));
  storage = new RepositoryStorage(join(dir, 'repositories'));
  repos = { store: repositoryStore(db), git: gitStorage(storage), settings: { forcePrivate: false, maxCreationLimit: -1, defaultBranch: 'main' } };
  languages = { store: repos.store, stats: languageStatsStore(db), git: languageGit(storage), table: linguistTable() };
  await db.owner.create({ data: { id: 1n, lower_name: 'ada', name: 'ada', type: 'user', email: 'ada@example.com' } });
}, 30_000);

afterAll(async () => {
  await db?.$disconnect();
  await dropDatabase(databaseUrl);
  await rm(dir, { recursive: true, force: true });
});

describe('language statistics', () => {
  it('are computed for the default branch, cached by commit, and set the repository\'s language', async () => {
    const created = await createRepository(repos, { ownerId: 1, name: 'calc', description: '', isPrivate: false, defaultBranch: '', autoInit: false, readme: '', isTemplate: false, objectFormatName: '' }, ada);
    const gitDir = storage.pathOf('ada', 'calc');
    const commit = await commitInitialFiles(gitDir, 'main', { 'main.py': 'print(1)\n', 'util.go': 'package util\n\n// x\n' }, 'Add\n', { name: 'Ada', email: 'ada@example.com' });
    await db.repository.update({ where: { id: BigInt(created.repository.id) }, data: { is_empty: false } });

    expect(await getLanguages(languages, 'ada', 'calc', ada)).toEqual([['Go', 19], ['Python', 9]]);
    const row = await db.languageStats.findUnique({ where: { repository_id_commit_sha: { repository_id: BigInt(created.repository.id), commit_sha: commit } } });
    expect(row?.languages).toEqual({ Go: 19, Python: 9 });
    expect((await db.repository.findUnique({ where: { id: BigInt(created.repository.id) } }))?.language).toBe('Go');

    // A cached answer is read back, not recomputed: change the row and see it.
    await db.languageStats.update({ where: { repository_id_commit_sha: { repository_id: BigInt(created.repository.id), commit_sha: commit } }, data: { languages: { Go: 1 } } });
    expect(await getLanguages(languages, 'ada', 'calc', ada)).toEqual([['Go', 1]]);

    await deleteRepository(repos, 'ada', 'calc', ada);
    expect(await db.languageStats.count({ where: { repository_id: BigInt(created.repository.id) } })).toBe(0);
  });
});
