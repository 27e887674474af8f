// Integration test: the repository row's counters over real PostgreSQL — stars move with the
// star rows (once per user, and go with a deleted user) and announce each real change for
// identity's per-user count, the issue counts collaboration announces are applied
// newest-version-wins, whatever order they arrive in, and a repository counts its creator
// as a watcher from the start.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { decodeEvent } from '@anvil/proto';
import { createRepository, deleteRepository, resolveRepository, type RepositoryDeps } from '../src/domain/repositories.js';
import { setStar, listStargazers } from '../src/domain/stars.js';
import { issueCountConsumer } from '../src/events/issue-count-consumer.js';
import { watchCountConsumer } from '../src/events/watch-count-consumer.js';
import type { RepositoryDb } from '../src/store/db.js';
import { removeOwnerRepositories } from '../src/store/repositories.js';
import { announceEarlierStars, forgetStars, starStore } from '../src/store/stars.js';
import { repositoryTestbed, type RepositoryTestbed } from './support/testbed.js';

let tb: RepositoryTestbed;
let db: RepositoryDb;
let deps: RepositoryDeps;
let owner: RepositoryTestbed['owner'];

beforeAll(async () => {
  tb = await repositoryTestbed('counters');
  ({ db, deps, owner } = tb);
}, 30_000);

afterAll(() => tb?.close(), 30_000);

const newRepository = async (ownerId: number, login: string, name: string) => {
  const caller = await owner(ownerId, login);
  const access = await createRepository(deps, {
    owner_id: ownerId, name, description: '', private: false, default_branch: '', auto_init: false, readme: '', template: false, object_format_name: '',
  }, caller);
  return { caller, id: access.repository.id };
};

const row = async (id: number) => db.repository.findUniqueOrThrow({ where: { id: BigInt(id) }, select: { num_stars: true, num_open_issues: true, num_open_pulls: true, num_watches: true } });

describe('stars', () => {
  it('count each user once, concurrently too, and go with a deleted user', async () => {
    const { caller: ada, id } = await newRepository(1, 'ada', 'starry');
    const bob = await owner(2, 'bob');
    const stars = { store: deps.store, stars: starStore(db) };
    await Promise.all([setStar(stars, 'ada', 'starry', bob, true), setStar(stars, 'ada', 'starry', bob, true), setStar(stars, 'ada', 'starry', ada, true)]);
    expect((await row(id)).num_stars).toBe(2);
    expect((await listStargazers(stars, await resolveRepository(stars.store, 'ada', 'starry', ada), 0, 10)).total).toBe(2);
    await setStar(stars, 'ada', 'starry', bob, false);
    await setStar(stars, 'ada', 'starry', bob, false);
    expect((await row(id)).num_stars).toBe(1);
    await db.$transaction((tx) => forgetStars(tx, 1));
    expect((await row(id)).num_stars).toBe(0);
    expect(await db.star.count({ where: { repository_id: BigInt(id) } })).toBe(0);
  });
});

/** The star events written to the outbox for `repositoryId`, oldest first: `+user` or `-user`. */
async function starEvents(repositoryId: number): Promise<string[]> {
  const rows = await db.outboxEvent.findMany({ where: { subject: { startsWith: 'repository.star.' } }, orderBy: { seq: 'asc' } });
  return rows.map((row) => ({ subject: row.subject, event: decodeEvent(row.type, row.payload) as { repository_id: number; user_id: number; star: boolean } }))
    .filter(({ event }) => Number(event.repository_id) === repositoryId)
    .map(({ subject, event }) => {
      expect(subject).toBe(event.star ? 'repository.star.added' : 'repository.star.removed');
      return `${event.star ? '+' : '-'}${event.user_id}`;
    });
}

describe('star events', () => {
  it('announce each star really added or removed, in its transaction, and nothing for a repeat', async () => {
    const { caller: eve, id } = await newRepository(11, 'eve', 'announced');
    const fay = await owner(12, 'fay');
    const stars = { store: deps.store, stars: starStore(db) };
    await setStar(stars, 'eve', 'announced', fay, true);
    await setStar(stars, 'eve', 'announced', fay, true);
    await setStar(stars, 'eve', 'announced', eve, true);
    await setStar(stars, 'eve', 'announced', fay, false);
    await setStar(stars, 'eve', 'announced', fay, false);

    expect(await starEvents(id)).toEqual(['+12', '+11', '-12']);
  });

  it('announce a deleted repository\'s stars as removed, so its stargazers count one fewer', async () => {
    const { caller: gus, id } = await newRepository(13, 'gus', 'doomed');
    const hal = await owner(14, 'hal');
    const stars = { store: deps.store, stars: starStore(db) };
    await setStar(stars, 'gus', 'doomed', hal, true);
    await setStar(stars, 'gus', 'doomed', gus, true);
    await deleteRepository(deps, await resolveRepository(deps.store, 'gus', 'doomed', gus), gus);

    expect((await starEvents(id)).sort()).toEqual(['+13', '+14', '-13', '-14']);
    expect(await db.star.count({ where: { repository_id: BigInt(id) } })).toBe(0);
  });

  it('announce the stars of a deleted owner\'s repositories as removed', async () => {
    const { id } = await newRepository(15, 'ivy', 'orphaned');
    const jon = await owner(16, 'jon');
    await setStar({ store: deps.store, stars: starStore(db) }, 'ivy', 'orphaned', jon, true);
    await db.$transaction((tx) => removeOwnerRepositories(tx, 15));

    expect(await starEvents(id)).toEqual(['+16', '-16']);
  });

  it('announce the stars kept before stars had events, once', async () => {
    const { id } = await newRepository(17, 'kim', 'old-favourite');
    await owner(18, 'lee');
    await db.star.createMany({ data: [17, 18].map((user) => ({ user_id: BigInt(user), repository_id: BigInt(id), announced: false })) });
    await announceEarlierStars(db);
    await announceEarlierStars(db);

    expect((await starEvents(id)).sort()).toEqual(['+17', '+18']);
    expect(await db.star.count({ where: { announced: false } })).toBe(0);
  });

  it('announce nothing when a star kept from before stars had events goes unannounced', async () => {
    const { caller: max, id } = await newRepository(19, 'max', 'quiet');
    await db.star.create({ data: { user_id: BigInt(19), repository_id: BigInt(id), announced: false } });
    await db.repository.update({ where: { id: BigInt(id) }, data: { num_stars: 1 } });
    await setStar({ store: deps.store, stars: starStore(db) }, 'max', 'quiet', max, false);

    expect(await starEvents(id)).toEqual([]);
    expect((await row(id)).num_stars).toBe(0);
  });
});

describe('issue counts', () => {
  it('apply the newest version only, so a late or repeated event changes nothing', async () => {
    const { id } = await newRepository(3, 'cy', 'tracked');
    const consumer = issueCountConsumer();
    const deliver = (version: number, openIssues: number, openPulls: number) => db.$transaction((tx) => consumer.handle({
      id: `e${version}`, subject: 'collaboration.repo_issue_counts.changed', type: '',
      payload: { repository_id: id, open_issues: openIssues, closed_issues: 0, open_pulls: openPulls, closed_pulls: 0, version },
    } as never, tx));
    await deliver(2, 5, 1);
    await deliver(1, 4, 0);
    expect(await row(id)).toMatchObject({ num_open_issues: 5, num_open_pulls: 1 });
    await deliver(3, 6, 2);
    await deliver(3, 6, 2);
    expect(await row(id)).toMatchObject({ num_open_issues: 6, num_open_pulls: 2 });
  });
});

describe('watch counts', () => {
  it('count the creator from the start, and move by what each watch event says', async () => {
    const { id } = await newRepository(4, 'di', 'watched');
    // Gitea's create answer already counts its creator's watch.
    expect(await row(id)).toMatchObject({ num_watches: 1 });
    const consumer = watchCountConsumer();
    let n = 0;
    const deliver = (watching: boolean, countChange?: number) => db.$transaction((tx) => consumer.handle({
      id: `w${++n}`, subject: `collaboration.repo_watch.${watching ? 'started' : 'stopped'}`, type: '',
      payload: { repository_id: id, user_id: 4, watching, ...(countChange === undefined ? {} : { count_change: countChange }) },
    } as never, tx));
    // Collaboration recording the creator's watch: counted already.
    await deliver(true, 0);
    expect(await row(id)).toMatchObject({ num_watches: 1 });
    await deliver(true);
    expect(await row(id)).toMatchObject({ num_watches: 2 });
    // The creator had watched on their own before collaboration recorded the creation.
    await deliver(true, -1);
    expect(await row(id)).toMatchObject({ num_watches: 1 });
    await deliver(false);
    await deliver(false);
    expect(await row(id)).toMatchObject({ num_watches: 0 });
  });
});
