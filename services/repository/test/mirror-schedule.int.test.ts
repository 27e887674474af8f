// The pull-mirror schedule over real PostgreSQL: replicas claiming due mirrors at the same
// moment never claim the same one (the lease), a claimed mirror is not due again until its
// lease runs out, and a requested sync makes a mirror due at once.
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
  for (let id = 1; id <= MIRRORS; id++) {
    await db.repositoryMigration.create({ data: { repository_id: BigInt(id), original_url: `https://example.com/${id}.git`, service: 'git', is_mirror: true, mirror_interval: BigInt(600_000), next_sync_at: past } });
  }
  await db.repositoryMigration.create({ data: { repository_id: BigInt(999), original_url: 'https://example.com/once.git', service: 'git', is_mirror: false } });
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

  it('does not hand out a leased mirror again until the lease ends, and never a one-time migration', async () => {
    expect(await store.claimDueMirrors(new Date(), 60_000, MIRRORS)).toEqual([]);
    expect((await store.claimDueMirrors(new Date(Date.now() + 61_000), 60_000, MIRRORS + 5)).length).toBe(MIRRORS);
  });

  it('makes a mirror due at once when a sync is requested', async () => {
    await store.requestSync(7, new Date(Date.now() - 1));
    expect(await store.claimDueMirrors(new Date(), 60_000, MIRRORS)).toEqual([7]);
  });
});
