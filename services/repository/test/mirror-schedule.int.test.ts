// The pull-mirror schedule over real PostgreSQL: replicas claiming due mirrors at the same
// moment never claim the same one (the lease), a claimed mirror is not due again until its
// lease runs out, and a requested sync makes a mirror due at once. Migrations a crash left
// half done are swept away.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { MigrationStore } from '../src/domain/migrations.js';
import type { RepositoryDb } from '../src/store/db.js';
import { migrationStore } from '../src/store/migrations.js';
import { repositoryTestbed, type RepositoryTestbed } from './support/testbed.js';

let tb: RepositoryTestbed;
let db: RepositoryDb;
let store: MigrationStore;
const MIRRORS = 20;

beforeAll(async () => {
  tb = await repositoryTestbed('mirrorsched');
  db = tb.db;
  store = migrationStore(db, tb.deps.store);
  const past = new Date(Date.now() - 60_000);
  const repository = (id: number, fields: { mirror: boolean; status?: string }) => db.repository.create({
    data: { id: BigInt(id), owner_id: 1n, owner_login: 'someone', name: `r${id}`, lower_name: `r${id}`, default_branch: 'main', original_url: `https://example.com/${id}.git`, mirror_interval: fields.mirror ? 600_000n : 0n, ...fields },
  });
  for (let id = 1; id <= MIRRORS; id++) {
    await repository(id, { mirror: true });
    await db.repositoryMigration.create({ data: { repository_id: BigInt(id), service: 'git', next_sync_at: past } });
  }
  await repository(999, { mirror: false });
  await db.repositoryMigration.create({ data: { repository_id: 999n, service: 'git', next_sync_at: past } });
  // A mirror still migrating: not synced before its clone is in.
  await repository(998, { mirror: true, status: 'migrating' });
  await db.repositoryMigration.create({ data: { repository_id: 998n, service: 'git', next_sync_at: past } });
}, 30_000);

afterAll(() => tb?.close());

describe('claiming due mirrors', () => {
  it('gives each due mirror to exactly one of several replicas claiming at once', async () => {
    const claims = await Promise.all(Array.from({ length: 6 }, () => store.claimDueMirrors(new Date(), 60_000, 5)));
    const claimed = claims.flat();
    expect(new Set(claimed).size).toBe(claimed.length);
    expect(claimed.length).toBeLessThanOrEqual(MIRRORS);
    const rest = await store.claimDueMirrors(new Date(), 60_000, MIRRORS);
    expect([...claimed, ...rest].sort((a, b) => a - b)).toEqual(Array.from({ length: MIRRORS }, (_, i) => i + 1));
  });

  it('does not hand out a leased mirror again until the lease ends, nor a one-time migration or a mirror still migrating', async () => {
    expect(await store.claimDueMirrors(new Date(), 60_000, MIRRORS)).toEqual([]);
    expect((await store.claimDueMirrors(new Date(Date.now() + 61_000), 60_000, MIRRORS + 5)).length).toBe(MIRRORS);
  });

  it('makes a mirror due at once when a sync is requested', async () => {
    await store.requestSync(7, new Date(Date.now() - 1));
    expect(await store.claimDueMirrors(new Date(), 60_000, MIRRORS)).toEqual([7]);
  });
});

describe('sweeping migrations a crash abandoned', () => {
  it('removes a repository still migrating whose clone has gone silent, and keeps one that reports', async () => {
    const silent = new Date(Date.now() - 10 * 60_000);
    for (const [id, progressAt] of [[501, silent], [502, new Date()]] as const) {
      await db.repository.create({ data: { id: BigInt(id), owner_id: 1n, owner_login: 'someone', name: `m${id}`, lower_name: `m${id}`, default_branch: 'main', status: 'migrating' } });
      await db.repositoryMigration.create({ data: { repository_id: BigInt(id), service: 'git', progress: 'receiving 10%', progress_at: progressAt } });
    }
    expect(await store.removeAbandonedMigrations(new Date(Date.now() - 60_000))).toEqual([501]);
    expect(await db.repository.findUnique({ where: { id: 501n } })).toBeNull();
    expect(await db.repositoryMigration.findUnique({ where: { repository_id: 501n } })).toBeNull();
    expect(await db.repository.findUnique({ where: { id: 502n } })).not.toBeNull();
  });

  it('never removes a repository whose migration is done', async () => {
    expect(await store.removeAbandonedMigrations(new Date(Date.now() + 60_000))).not.toContain(1);
    expect(await db.repository.findUnique({ where: { id: 1n } })).not.toBeNull();
  });
});
