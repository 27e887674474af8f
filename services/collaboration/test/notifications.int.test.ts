// Notification threads over real PostgreSQL and NATS JetStream: collaboration's own events,
// published by its outbox relay, reach the durable notification consumer, which writes one
// thread per user and issue for watchers and participants, never for the actor. A consumer
// stopped and failing mid-burst loses no thread and applies no event twice.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { createLogger, outboxEvent, startConsumer, startOutboxRelay, type Caller, type EventBus, type OutboxRelay, type RepositoryScope, type RunningConsumer } from '@anvil/kit';
import { decodeEvent } from '@anvil/proto';
import { createComment, type CommentDeps } from '../src/domain/comments.js';
import { createIssue } from '../src/domain/issues.js';
import { countUnread, listNotifications, markNotifications, markThread, type NotificationDeps } from '../src/domain/notifications.js';
import { setWatch, type WatchDeps } from '../src/domain/watches.js';
import { notificationConsumer, NOTIFICATION_CONSUMER } from '../src/events/notification-consumer.js';
import { repositoryConsumer } from '../src/events/repository-consumer.js';
import { createDb, type CollaborationDb } from '../src/store/db.js';
import { commentStore } from '../src/store/comments.js';
import { issueStore } from '../src/store/issues.js';
import { notificationStore } from '../src/store/notifications.js';
import { watchStore } from '../src/store/watches.js';
import type { CollaborationTx } from '../src/store/db.js';
import { newRunId, testDatabase, testEventBus, type TestDatabase, type TestEventBus } from '../../../test/support/int-testbed.js';

process.env.ANVIL_LOG_LEVEL ??= 'silent';
// Each test waits for a consumer behind a relay: a hang guard sized for a loaded 2-core machine.
jest.setTimeout(180_000);
const log = createLogger('collaboration-notifications-test');
const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

const DUPLICATE_WINDOW_MS = 200;

let database: TestDatabase;
let events: TestEventBus;
let bus: EventBus;
let db: CollaborationDb;
let relay: OutboxRelay;
let consumer: RunningConsumer | undefined;
let deps: CommentDeps & WatchDeps & NotificationDeps;

const user = (userId: number, login: string): Caller => ({ userId, login, isAdmin: false, restricted: false, scopes: ['all'] });
const ada = user(11, 'ada');
const bob = user(12, 'bob');
const carol = user(13, 'carol');
const dave = user(14, 'dave');

function scope(id: number, permission = 'owner'): RepositoryScope {
  return {
    permission,
    repository: { id, owner_id: 11, owner_login: 'ada', name: `repo-${id}`, private: false, archived: false } as RepositoryScope['repository'],
    owner: { id: 11, login: 'ada', type: 'user' } as RepositoryScope['owner'],
  };
}

const newIssue = (repo: number, caller: Caller, title = 'an issue') =>
  createIssue(deps, scope(repo), caller, { title, body: '', ref: '', assignees: [], labels: [], milestone: 0, closed: false });

const threadsOf = async (caller: Caller, repo?: number, request: Partial<Parameters<typeof listNotifications>[3]> = {}) =>
  (await listNotifications(deps, caller, repo ? scope(repo, 'read') : undefined, { all: false, statuses: [], subjectTypes: [], ...request }, { offset: 0, limit: 1000 })).items;

/** Waits until the consumer has acknowledged every event in the stream. */
async function settled(timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const pending = await db.outboxEvent.count({ where: { sent_at: null } });
    const stream = await bus.jsm.streams.info(bus.stream);
    const info = await bus.jsm.consumers.info(bus.stream, NOTIFICATION_CONSUMER).catch(() => undefined);
    if (!pending && info && info.ack_floor.stream_seq >= stream.state.last_seq && info.num_ack_pending === 0) return;
    if (Date.now() > deadline) throw new Error(`notifications did not catch up: ${JSON.stringify({ pending, last: stream.state.last_seq, floor: info?.ack_floor })}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function startNotifications(wrap?: (handle: (e: Parameters<ReturnType<typeof notificationConsumer>['handle']>[0], tx: CollaborationTx) => Promise<void>) => ReturnType<typeof notificationConsumer>['handle']) {
  const options = notificationConsumer();
  return startConsumer({ ...options, handle: wrap ? wrap(options.handle) : options.handle, db, bus, log });
}

beforeAll(async () => {
  const run = newRunId();
  database = await testDatabase(`anvil_collaboration_notifications_test_${run}`, MIGRATIONS_DIR);
  db = createDb(database.url);
  // A short duplicate window lets a test publish an event id again, as a redelivery would.
  events = await testEventBus('collaboration-notifications-test', `notify${run}`, log, { duplicateWindowMs: DUPLICATE_WINDOW_MS });
  bus = events.bus;
  relay = startOutboxRelay(db, bus, log, 50);
  const onPublished = () => relay.kick();
  deps = {
    issues: issueStore(db, { onPublished }), comments: commentStore(db, { onPublished }),
    watches: watchStore(db, { onPublished }), notifications: notificationStore(db),
  };
  consumer = await startNotifications();
}, 60_000);

afterAll(async () => {
  await consumer?.stop();
  await relay?.stop();
  await events?.close();
  await db?.$disconnect();
  await database?.drop();
}, 60_000);

describe('notification threads', () => {
  it('go to the repository watchers and the issue participants when someone comments, never to the commenter', async () => {
    await setWatch(deps, scope(1, 'read'), bob, true);
    const issue = await newIssue(1, ada);
    // The opening is handled before Carol takes part, as when the consumer keeps up: the
    // consumer reads an issue's participants when it handles an event (as Gitea's notifier
    // does), so an opening handled after her comment would rightly tell her of it too.
    await settled();
    await createComment(deps, scope(1, 'read'), carol, issue.index, 'a comment');
    await settled();

    const [adaThread] = await threadsOf(ada);
    expect(adaThread).toMatchObject({ repositoryId: 1, status: 'unread', source: 'issue', subject: { index: issue.index, title: 'an issue', state: 'open' } });
    expect(adaThread.subject.latestCommentId).toBeGreaterThan(0);
    expect(await threadsOf(bob)).toHaveLength(1);
    // Carol commented: her own comment makes no thread for her.
    expect(await threadsOf(carol)).toHaveLength(0);
    // Dave neither watches nor takes part.
    expect(await threadsOf(dave)).toHaveLength(0);
  });

  it('do not tell the poster about the issue they opened, but tell the watchers', async () => {
    await setWatch(deps, scope(2, 'read'), dave, true);
    await newIssue(2, ada, 'opened by ada');
    await settled();
    expect((await threadsOf(ada, 2))).toHaveLength(0);
    expect((await threadsOf(dave, 2)).map((t) => t.subject.title)).toEqual(['opened by ada']);
  });

  it('keep one thread per user and issue, unread again after a new comment, and a pinned one stays pinned', async () => {
    await setWatch(deps, scope(3, 'read'), bob, true);
    await setWatch(deps, scope(3, 'read'), carol, true);
    const issue = await newIssue(3, ada);
    await settled();
    const [bobThread] = await threadsOf(bob, 3);
    const [carolThread] = await threadsOf(carol, 3);
    await markThread(deps, bob, bobThread.id, 'read');
    await markThread(deps, carol, carolThread.id, 'pinned');
    expect(await threadsOf(bob, 3)).toHaveLength(0);

    await createComment(deps, scope(3, 'read'), ada, issue.index, 'news');
    await settled();
    expect((await threadsOf(bob, 3)).map((t) => [t.id, t.status])).toEqual([[bobThread.id, 'unread']]);
    expect((await threadsOf(carol, 3)).map((t) => [t.id, t.status])).toEqual([[carolThread.id, 'pinned']]);
  });

  it('list pinned threads by default and read ones only when asked, and count only unread ones as new', async () => {
    await setWatch(deps, scope(4, 'read'), dave, true);
    const issues = [await newIssue(4, ada, 'first'), await newIssue(4, ada, 'second'), await newIssue(4, ada, 'third')];
    await settled();
    const byTitle = new Map((await threadsOf(dave, 4)).map((t) => [t.subject.title, t]));
    expect(byTitle.size).toBe(issues.length);
    await markThread(deps, dave, byTitle.get('first')!.id, 'pinned');
    await markThread(deps, dave, byTitle.get('second')!.id, 'read');

    expect((await threadsOf(dave, 4)).map((t) => t.subject.title).sort()).toEqual(['first', 'third']);
    expect((await threadsOf(dave, 4, { statuses: ['read'] })).map((t) => t.subject.title)).toEqual(['second']);
    expect(await threadsOf(dave, 4, { all: true })).toHaveLength(3);
    const unread = await countUnread(deps, dave);
    expect(unread.find((c) => c.repositoryId === 4)?.count).toBe(1);

    // Mark everything unread up to now as read: the pinned one is left as it is.
    const changed = await markNotifications(deps, dave, scope(4, 'read'), { all: false, statuses: [], toStatus: 'read' });
    expect(changed.map((t) => t.subject.title)).toEqual(['third']);
    expect((await threadsOf(dave, 4)).map((t) => t.subject.title)).toEqual(['first']);
  });

  it('make the creator of a repository its watcher, counted once with the repository\'s own count', async () => {
    const repoConsumer = await startConsumer({ ...repositoryConsumer(log), db, bus, log });
    // The repository service's event shows the count it made the row with: the creator.
    const announce = (repositoryId: number, numWatches = 1) => db.outboxEvent.create({ data: outboxEvent('repository.repo.created', 'anvil.repository.v1.RepositoryCreated', {
      repository: { id: repositoryId, owner_id: 11, owner_login: 'ada', name: `fresh-${repositoryId}`, num_watches: numWatches }, actor_id: 11,
    }) });
    try {
      // Two announcements of the creation (as after a republish with a new id): one watch.
      await announce(77);
      await announce(77);
      // Ada watched repository 78 on her own before its creation was heard of.
      await setWatch(deps, scope(78, 'owner'), ada, true);
      await announce(78);
      // From a repository service that did not count the creator yet (a rolling update).
      await announce(79, 0);
      relay.kick();
      const deadline = Date.now() + 30_000;
      const recorded = async () => (await db.repoWatch.count({ where: { repository_id: { in: [77n, 78n, 79n] } } })) === 3
        && (await db.repoWatch.count({ where: { repository_id: { in: [77n, 78n] }, counted_at_creation: true } })) === 2;
      while (!(await recorded()) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await settled();
    } finally {
      await repoConsumer.stop();
    }
    expect(await deps.watches.find(77, 11)).toBeDefined();
    expect(await deps.watches.find(78, 11)).toBeDefined();
    const started = await db.outboxEvent.findMany({ where: { subject: 'collaboration.repo_watch.started' }, orderBy: { seq: 'asc' } });
    const changes = started.map((e) => decodeEvent<{ repository_id: number; user_id: number; count_change?: number }>(e.type, e.payload));
    const changesOf = (repositoryId: number) => changes.filter((e) => e.repository_id === repositoryId).map((e) => e.count_change);
    // The repository counted the creator when it made each row: 77's record changes nothing;
    // Ada's own start on 78 counted her a second time (+1), which the record takes back.
    expect(changesOf(77)).toEqual([0]);
    expect(changesOf(78)).toEqual([undefined, -1]);
    // The repository counts that one from its event, as any other start.
    expect(changesOf(79)).toEqual([undefined]);
  });
});

describe('the notification consumer', () => {
  it('leaves each thread as the last of a burst of events on one issue left it', async () => {
    await consumer?.stop();
    consumer = undefined;
    await setWatch(deps, scope(10, 'read'), bob, true);
    const issue = await newIssue(10, ada, 'busy');
    const fromCarol = await createComment(deps, scope(10, 'read'), carol, issue.index, 'first');
    const fromAda = await createComment(deps, scope(10, 'read'), ada, issue.index, 'second');
    // All three events wait, and are handled together when the consumer starts again.
    consumer = await startNotifications();
    await settled();
    const threadOf = async (who: Caller) => {
      const row = await db.notification.findUnique({ where: { user_id_issue_id: { user_id: BigInt(who.userId), issue_id: BigInt(issue.id) } } });
      return row && { comment: Number(row.comment_id), by: Number(row.updated_by), status: row.status };
    };
    // Bob watches: the opening, then both comments, the last Ada's.
    expect(await threadOf(bob)).toEqual({ comment: Number(fromAda.id), by: ada.userId, status: 'unread' });
    // Ada opened it: told of Carol's comment, not of her own.
    expect(await threadOf(ada)).toEqual({ comment: Number(fromCarol.id), by: carol.userId, status: 'unread' });
    // Carol took part with her comment: told of Ada's.
    expect(await threadOf(carol)).toEqual({ comment: Number(fromAda.id), by: ada.userId, status: 'unread' });
    expect(await threadOf(dave)).toBeNull();
  });

  it('loses no thread and applies no event twice when stopped and failing mid-burst', async () => {
    await consumer?.stop();
    consumer = undefined;
    await setWatch(deps, scope(9, 'read'), bob, true);
    const issues = [];
    for (let n = 0; n < 40; n++) issues.push(await newIssue(9, ada, `burst ${n}`));
    for (const issue of issues) await createComment(deps, scope(9, 'read'), carol, issue.index, 'burst comment');

    // The first run fails every 7th event after writing its threads (a crash before the
    // commit), and is stopped before the burst is through.
    let seen = 0;
    consumer = await startNotifications((handle) => async (event, tx) => {
      await handle(event, tx);
      if (++seen % 7 === 0) throw new Error('crash before commit');
    });
    const deadline = Date.now() + 60_000;
    while ((await db.processedEvent.count({ where: { consumer: NOTIFICATION_CONSUMER } })) < 20 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await consumer.stop();
    consumer = await startNotifications();
    await settled();

    const bobThreads = await threadsOf(bob, 9);
    expect(bobThreads).toHaveLength(40);
    // Each thread points at its issue's comment: the comment events all arrived.
    expect(bobThreads.every((t) => t.subject.latestCommentId > 0)).toBe(true);
    const adaThreads = await threadsOf(ada, 9);
    expect(adaThreads).toHaveLength(40);

    // Bob reads everything. Then the burst's events arrive again with their ids (the relay
    // resends them past the stream's duplicate window): applied twice, they would make his
    // threads unread again.
    await markNotifications(deps, bob, scope(9, 'read'), { all: true, statuses: [], toStatus: 'read' });
    await new Promise((resolve) => setTimeout(resolve, DUPLICATE_WINDOW_MS + 100));
    const resent = await db.outboxEvent.updateMany({ where: { subject: 'collaboration.issue_comment.created' }, data: { sent_at: null } });
    expect(resent.count).toBeGreaterThanOrEqual(40);
    relay.kick();
    await settled();
    expect(await threadsOf(bob, 9)).toHaveLength(0);
    const eventIds = (await db.outboxEvent.findMany({ where: { subject: { startsWith: 'collaboration.issue' } }, select: { id: true } })).map((e) => e.id);
    expect(await db.processedEvent.count({ where: { consumer: NOTIFICATION_CONSUMER, event_id: { in: eventIds } } })).toBe(eventIds.length);
  }, 300_000); // A hang guard only: 80 writes and two consumer runs on a shared machine.

  it('counts every user\'s threads per repository and status exactly as they stand, through writes, marks, failures and deletions', async () => {
    // Everything above ran: threads written in batches and one by one, refreshed, marked,
    // pinned, and written by transactions that failed. Now some marks and an issue deletion.
    await markNotifications(deps, dave, undefined, { all: true, statuses: [], toStatus: 'read' });
    const [adaThread] = await threadsOf(ada, 10);
    await markThread(deps, ada, adaThread.id, 'pinned');
    const gone = await db.issue.findFirstOrThrow({ where: { repository_id: 9n, title: 'burst 3' } });
    await db.issue.delete({ where: { id: gone.id } });

    const kept = await db.$queryRaw<Array<{ user_id: bigint; status: string; repository_id: bigint; count: bigint }>>`
      SELECT user_id, status, repository_id, count FROM notification_count WHERE count <> 0 ORDER BY 1, 2, 3`;
    const counted = await db.$queryRaw<typeof kept>`
      SELECT user_id, status, repository_id, count(*) AS count FROM notification GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;
    expect(counted.length).toBeGreaterThan(8);
    expect(kept).toEqual(counted);
    // What a list and the unread count read from them.
    expect((await countUnread(deps, bob)).find((c) => c.repositoryId === 9)).toBeUndefined();
    expect((await countUnread(deps, ada)).find((c) => c.repositoryId === 9)?.count).toBe(39);
  });
});
