// Tracked times and stopwatches over real PostgreSQL: each change writes its rows, its
// timeline entry and its event in one transaction; one stopwatch runs per user and issue
// even when two starts race; starting one stops the user's other; the repository's and the
// site's switches and Gitea's "only contributors" rule decide who may track; a missing
// entry is a 404, never a failure.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { createLogger, prismaAdapter, type Caller, type RepositoryScope } from '@anvil/kit';
import { decodeEvent } from '@anvil/proto';
import { createIssue } from '../src/domain/issues.js';
import { cancelStopwatch, listStopwatches, startStopwatch, stopStopwatch, type StopwatchDeps } from '../src/domain/stopwatches.js';
import { addTrackedTime, deleteTrackedTime, listTrackedTimes, listUserTrackedTimes, resetTrackedTimes, type TrackedTimeDeps } from '../src/domain/tracked-times.js';
import { repositoryConsumer } from '../src/events/repository-consumer.js';
import { PrismaClient } from '../src/store/generated/client.js';
import { issueStore } from '../src/store/issues.js';
import { stopwatchStore } from '../src/store/stopwatches.js';
import { trackedTimeStore } from '../src/store/tracked-times.js';
import { newRunId, testDatabase, type TestDatabase } from '../../../test/support/int-testbed.js';

process.env.ANVIL_LOG_LEVEL ??= 'silent';
const log = createLogger('collaboration-test');
const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

let database: TestDatabase;
let db: PrismaClient;
let deps: TrackedTimeDeps & StopwatchDeps;
/** SQL statements the client sent since the last reset. */
let statements: string[] = [];

const caller = (userId: number, login: string, isAdmin = false): Caller => ({ userId, login, isAdmin, restricted: false, scopes: ['all'] });
const ada = caller(7, 'ada');
const bob = caller(8, 'bob');
const eve = caller(9, 'eve');

interface Tracker { enable_time_tracker?: boolean; allow_only_contributors_to_track_time?: boolean }

/** A repository as the gateway resolves it, with the caller's permission and the tracker's settings. */
function scope(id: number, permission = 'owner', tracker: Tracker = {}): RepositoryScope {
  return {
    permission,
    repository: {
      id, owner_id: 7, owner_login: 'ada', name: `repo-${id}`, private: false, archived: false,
      internal_tracker: { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true, ...tracker },
    } as RepositoryScope['repository'],
    owner: { id: 7, login: 'ada', type: 'user' } as RepositoryScope['owner'],
  };
}

async function newIssue(repositoryId: number, poster = ada, permission = 'owner') {
  return createIssue(deps, scope(repositoryId, permission), poster, { title: 'work', body: '', ref: '', assignees: [], labels: [], milestone: 0, closed: false });
}

const entriesOf = async (issueId: number) => (await db.comment.findMany({ where: { issue_id: BigInt(issueId) }, orderBy: { id: 'asc' } })).map((c) => [c.type, c.body]);
const kindOf = (promise: Promise<unknown>) => promise.then(() => 'ok', (err: { kind?: string }) => err.kind);

beforeAll(async () => {
  database = await testDatabase(`anvil_collaboration_times_test_${newRunId()}`, MIGRATIONS_DIR);
  db = new PrismaClient({ adapter: prismaAdapter(database.url), log: [{ emit: 'event', level: 'query' }] });
  db.$on('query', (e) => statements.push(e.query));
  deps = { issues: issueStore(db), trackedTimes: trackedTimeStore(db), stopwatches: stopwatchStore(db), timeTrackingEnabled: true };
  // The read model knows the users named on behalf of others.
  for (const u of [ada, bob, eve]) {
    await db.user.create({ data: { id: BigInt(u.userId), login: u.login, lower_name: u.login, profile: { id: u.userId, login: u.login } } });
  }
}, 60_000);

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe('tracked times in PostgreSQL', () => {
  it('store an added time with its add_time_manual entry and its event, and list it with its issue', async () => {
    const issue = await newIssue(1);
    const time = await addTrackedTime(deps, scope(1), ada, issue.index, { seconds: 3600, created: new Date('2026-01-02T03:04:05Z'), userName: '' });
    expect(time).toMatchObject({ time: 3600, userId: 7, createdAt: new Date('2026-01-02T03:04:05Z') });
    expect(await entriesOf(issue.id)).toEqual([['add_time_manual', '|3600']]);
    const event = await db.outboxEvent.findFirst({ where: { subject: 'collaboration.tracked_time.added' } });
    expect(decodeEvent(event!.type, event!.payload)).toMatchObject({ action: 'added', time: { id: time.id, time: 3600 }, issue: { index: issue.index }, repository: { id: 1 }, sender: { login: 'ada' } });
    const store = trackedTimeStore(db);
    statements = [];
    const page = await store.list({ repositoryId: 1, offset: 0, limit: 10 });
    // A page of times, with their users and issues, is one SQL statement.
    expect(statements).toHaveLength(1);
    expect(page.items[0].issue).toMatchObject({ index: issue.index, createdAt: expect.any(Date), assignees: [] });
    const listed = await listTrackedTimes(deps, scope(1), ada, { index: issue.index, user: '', offset: 0, limit: 10 });
    expect(listed.total).toBe(1);
    expect(listed.items[0]).toMatchObject({ id: time.id, user: { login: 'ada' }, issue: { index: issue.index, title: 'work' } });
  });

  it('refuses zero, negative and absurd amounts, and writes nothing', async () => {
    const issue = await newIssue(1);
    for (const seconds of [0, -5, 10 ** 12]) {
      expect(await kindOf(addTrackedTime(deps, scope(1), ada, issue.index, { seconds, userName: '' }))).toBe('invalid');
    }
    expect(await db.trackedTime.count({ where: { issue_id: BigInt(issue.id) } })).toBe(0);
    expect(await entriesOf(issue.id)).toEqual([]);
  });

  it('lets repository admins add time for another user, refuses writers and unknown users', async () => {
    const issue = await newIssue(2);
    const forBob = await addTrackedTime(deps, scope(2, 'admin'), ada, issue.index, { seconds: 60, userName: 'bob' });
    expect(forBob.userId).toBe(8);
    expect(await kindOf(addTrackedTime(deps, scope(2, 'write'), bob, issue.index, { seconds: 60, userName: 'eve' }))).toBe('forbidden');
    expect(await kindOf(addTrackedTime(deps, scope(2, 'admin'), ada, issue.index, { seconds: 60, userName: 'nobody' }))).toBe('not_found');
    expect(await db.trackedTime.count({ where: { issue_id: BigInt(issue.id) } })).toBe(1);
  });

  it('shows a reader only their own times and refuses their asking for someone else\'s', async () => {
    const issue = await newIssue(3, eve, 'read');
    await addTrackedTime(deps, scope(3), ada, issue.index, { seconds: 10, userName: '' });
    await addTrackedTime(deps, scope(3, 'read'), eve, issue.index, { seconds: 20, userName: '' });
    const own = await listTrackedTimes(deps, scope(3, 'read'), eve, { index: 0, user: '', offset: 0, limit: 10 });
    expect(own.items.map((t) => t.time)).toEqual([20]);
    expect(await kindOf(listTrackedTimes(deps, scope(3, 'read'), eve, { index: 0, user: 'ada', offset: 0, limit: 10 }))).toBe('forbidden');
    const all = await listTrackedTimes(deps, scope(3), ada, { index: 0, user: '', offset: 0, limit: 1 });
    expect([all.items.length, all.total]).toEqual([1, 2]);
    const since = await listTrackedTimes(deps, scope(3), ada, { index: 0, user: 'eve', since: new Date(Date.now() - 60_000), offset: 0, limit: 10 });
    expect(since.items.map((t) => t.userId)).toEqual([9]);
  });

  it('answers not found for a missing entry, one of another issue and one already deleted', async () => {
    const issue = await newIssue(4);
    const other = await newIssue(4);
    const time = await addTrackedTime(deps, scope(4), ada, issue.index, { seconds: 30, userName: '' });
    expect(await kindOf(deleteTrackedTime(deps, scope(4), ada, issue.index, 987654))).toBe('not_found');
    expect(await kindOf(deleteTrackedTime(deps, scope(4), ada, other.index, time.id))).toBe('not_found');
    expect(await kindOf(deleteTrackedTime(deps, scope(4), ada, issue.index, time.id))).toBe('ok');
    expect(await kindOf(deleteTrackedTime(deps, scope(4), ada, issue.index, time.id))).toBe('not_found');
    expect(await entriesOf(issue.id)).toEqual([['add_time_manual', '|30'], ['delete_time_manual', '|30']]);
    expect((await listTrackedTimes(deps, scope(4), ada, { index: issue.index, user: '', offset: 0, limit: 10 })).total).toBe(0);
  });

  it('lets only the author or an admin delete an entry', async () => {
    const issue = await newIssue(5);
    const adas = await addTrackedTime(deps, scope(5), ada, issue.index, { seconds: 30, userName: '' });
    expect(await kindOf(deleteTrackedTime(deps, scope(5, 'write'), bob, issue.index, adas.id))).toBe('forbidden');
    expect(await kindOf(deleteTrackedTime(deps, scope(5, 'admin'), bob, issue.index, adas.id))).toBe('ok');
  });

  it('resets only the caller\'s own times, and answers not found when they have none', async () => {
    const issue = await newIssue(6);
    await addTrackedTime(deps, scope(6), ada, issue.index, { seconds: 100, userName: '' });
    await addTrackedTime(deps, scope(6), ada, issue.index, { seconds: 200, userName: '' });
    await addTrackedTime(deps, scope(6, 'write'), bob, issue.index, { seconds: 5, userName: '' });
    await resetTrackedTimes(deps, scope(6), ada, issue.index);
    const left = await listTrackedTimes(deps, scope(6), ada, { index: issue.index, user: '', offset: 0, limit: 10 });
    expect(left.items.map((t) => t.userId)).toEqual([8]);
    expect((await entriesOf(issue.id)).at(-1)).toEqual(['delete_time_manual', '|300']);
    expect(await kindOf(resetTrackedTimes(deps, scope(6), ada, issue.index))).toBe('not_found');
  });

  it('honours the repository\'s switch, the site\'s switch and the only-contributors rule', async () => {
    const issue = await newIssue(7);
    const off = scope(7, 'owner', { enable_time_tracker: false });
    expect(await kindOf(addTrackedTime(deps, off, ada, issue.index, { seconds: 1, userName: '' }))).toBe('bad_request');
    expect(await kindOf(listTrackedTimes(deps, off, ada, { index: issue.index, user: '', offset: 0, limit: 10 }))).toBe('not_found');
    expect(await kindOf(listTrackedTimes(deps, off, ada, { index: 0, user: '', offset: 0, limit: 10 }))).toBe('bad_request');
    expect(await kindOf(startStopwatch(deps, off, ada, issue.index))).toBe('forbidden');
    const siteOff = { ...deps, timeTrackingEnabled: false };
    expect(await kindOf(addTrackedTime(siteOff, scope(7), ada, issue.index, { seconds: 1, userName: '' }))).toBe('bad_request');
    // A reader who neither posted nor is assigned tracks only when contributors-only is off.
    expect(await kindOf(addTrackedTime(deps, scope(7, 'read'), eve, issue.index, { seconds: 1, userName: '' }))).toBe('forbidden');
    expect(await kindOf(addTrackedTime(deps, scope(7, 'read', { allow_only_contributors_to_track_time: false }), eve, issue.index, { seconds: 1, userName: '' }))).toBe('ok');
    expect(await db.trackedTime.count({ where: { issue_id: BigInt(issue.id) } })).toBe(1);
  });

  it('lists the caller\'s own times in every repository', async () => {
    const times = await listUserTrackedTimes(deps, bob, { offset: 0, limit: 50 });
    expect(times.items.every((t) => t.userId === 8)).toBe(true);
    expect(new Set(times.items.map((t) => t.repositoryId))).toEqual(new Set([2, 6]));
  });
});

describe('stopwatches in PostgreSQL', () => {
  it('run once per user and issue when two starts race, and the loser changes nothing', async () => {
    const issue = await newIssue(10);
    const results = await Promise.all([kindOf(startStopwatch(deps, scope(10), ada, issue.index)), kindOf(startStopwatch(deps, scope(10), ada, issue.index))]);
    expect(results.sort()).toEqual(['conflict', 'ok']);
    expect(await db.stopwatch.count({ where: { issue_id: BigInt(issue.id) } })).toBe(1);
    expect(await entriesOf(issue.id)).toEqual([['start_tracking', '']]);
    expect(await kindOf(startStopwatch(deps, scope(10), ada, issue.index))).toBe('conflict');
  });

  it('add the measured time when stopped, with a stop_tracking entry and event', async () => {
    const [issue] = (await db.issue.findMany({ where: { repository_id: 10n } }));
    await db.stopwatch.updateMany({ where: { issue_id: issue.id }, data: { created_at: new Date(Date.now() - 90_000) } });
    await stopStopwatch(deps, scope(10), ada, Number(issue.index));
    const [time] = await db.trackedTime.findMany({ where: { issue_id: issue.id } });
    expect(Number(time.time)).toBeGreaterThanOrEqual(90);
    expect((await entriesOf(Number(issue.id))).map(([type]) => type)).toEqual(['start_tracking', 'stop_tracking']);
    expect(await db.outboxEvent.count({ where: { subject: 'collaboration.tracked_time.stopwatch_stopped' } })).toBe(1);
    expect(await kindOf(stopStopwatch(deps, scope(10), ada, Number(issue.index)))).toBe('conflict');
  });

  it('stop the user\'s running stopwatch when they start another, and cancel without tracking', async () => {
    const first = await newIssue(11);
    const second = await newIssue(11);
    await startStopwatch(deps, scope(11), ada, first.index);
    await startStopwatch(deps, scope(11), ada, second.index);
    const running = await listStopwatches(deps, ada, { offset: 0, limit: 10 });
    expect(running.items.map((s) => s.issueIndex)).toEqual([second.index]);
    expect(await db.trackedTime.count({ where: { issue_id: BigInt(first.id) } })).toBe(1);
    await cancelStopwatch(deps, scope(11), ada, second.index);
    expect(await db.trackedTime.count({ where: { issue_id: BigInt(second.id) } })).toBe(0);
    expect((await entriesOf(second.id)).map(([type]) => type)).toEqual(['start_tracking', 'cancel_tracking']);
    expect(await kindOf(cancelStopwatch(deps, scope(11), ada, second.index))).toBe('conflict');
    expect((await listStopwatches(deps, ada, { offset: 0, limit: 10 })).total).toBe(0);
  });

  it('go with their repository when it is deleted, with its tracked times', async () => {
    const issue = await newIssue(13);
    await addTrackedTime(deps, scope(13), ada, issue.index, { seconds: 42, userName: '' });
    await startStopwatch(deps, scope(13), bob, issue.index);
    await startStopwatch(deps, scope(13), ada, issue.index);
    const handler = repositoryConsumer(log);
    await db.$transaction((tx) => handler.handle({
      id: 'times-repo-deleted', subject: 'repository.repo.deleted', type: 'anvil.repository.v1.RepositoryDeleted', payload: { repository: { id: 13 } },
    }, tx));
    expect(await db.trackedTime.count({ where: { repository_id: 13n } })).toBe(0);
    expect(await db.stopwatch.count({ where: { issue_id: BigInt(issue.id) } })).toBe(0);
    expect((await listStopwatches(deps, ada, { offset: 0, limit: 10 })).items.map((s) => s.repositoryId)).not.toContain(13);
  });
});
