// Issues over real PostgreSQL: numbers stay distinct and consecutive under concurrent
// creators, every change carries its event in the same transaction, a page of the list is
// one SQL statement, the user read model follows identity's events, and a deleted
// repository's issues go with it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { createLogger, prismaAdapter, type Caller, type RepositoryScope } from '@anvil/kit';
import { decodeEvent } from '@anvil/proto';
import { createIssue, deleteIssue, editIssue, listIssues, type IssueDeps } from '../src/domain/issues.js';
import { identityUserConsumer } from '../src/events/identity-user-consumer.js';
import { repositoryConsumer } from '../src/events/repository-consumer.js';
import { PrismaClient } from '../src/store/generated/client.js';
import { issueStore } from '../src/store/issues.js';
import { newRunId, testDatabase, type TestDatabase } from '../../../test/support/int-testbed.js';

process.env.ANVIL_LOG_LEVEL ??= 'silent';
const log = createLogger('collaboration-test');
const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

let database: TestDatabase;
let db: PrismaClient;
let deps: IssueDeps;
/** SQL statements the client sent since the last reset. */
let statements: string[] = [];

const ada: Caller = { userId: 7, login: 'ada', isAdmin: false, restricted: false, scopes: ['all'] };

/** A repository as the gateway resolves it, with the caller's permission there. */
function scope(id: number, permission = 'owner', archived = false): RepositoryScope {
  return {
    permission,
    repository: { id, owner_id: 7, owner_login: 'ada', name: `repo-${id}`, private: false, archived } as RepositoryScope['repository'],
    owner: { id: 7, login: 'ada', type: 'user' } as RepositoryScope['owner'],
  };
}

const list = (repositoryId: number, extra: Partial<Parameters<typeof listIssues>[2]> = {}) => listIssues(deps, scope(repositoryId), {
  state: 'all', type: '', labels: [], milestones: [], q: '', createdBy: '', assignedBy: '', mentionedBy: '', offset: 0, limit: 50, ...extra,
});

beforeAll(async () => {
  database = await testDatabase(`anvil_collaboration_issues_test_${newRunId()}`, MIGRATIONS_DIR);
  db = new PrismaClient({ adapter: prismaAdapter(database.url), log: [{ emit: 'event', level: 'query' }] });
  db.$on('query', (e) => statements.push(e.query));
  deps = { issues: issueStore(db) };
}, 60_000);

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe('issues in PostgreSQL', () => {
  it('give 64 concurrent issues in one repository 64 distinct consecutive numbers, each with its event', async () => {
    const created = await Promise.all(Array.from({ length: 64 }, (_, n) => createIssue(deps, scope(1), ada, {
      title: `race ${n}`, body: '', ref: '', assignees: [], labels: [], milestone: 0, closed: false,
    })));
    expect(created.map((i) => i.index).sort((a, b) => a - b)).toEqual(Array.from({ length: 64 }, (_, n) => n + 1));
    expect(await db.outboxEvent.count({ where: { subject: 'collaboration.issue.opened' } })).toBe(64);
    const event = await db.outboxEvent.findFirst({ where: { subject: 'collaboration.issue.opened' }, orderBy: { seq: 'desc' } });
    expect(decodeEvent(event!.type, event!.payload)).toMatchObject({
      action: 'opened', issue: { repository_id: 1, state: 'open' }, repository: { id: 1, name: 'repo-1' }, sender: { id: 7, login: 'ada' },
    });
    // The unfiltered count comes from the repository's counters and agrees with the rows.
    expect((await list(1, { limit: 1 })).total).toBe(64);
  });

  it('read a page of issues with their users, labels and milestone in one SQL statement', async () => {
    const milestone = await db.milestone.create({ data: { repository_id: 2n, name: 'v1' } });
    const label = await db.label.create({ data: { repository_id: 2n, name: 'bug', color: '#ee0701' } });
    for (let n = 0; n < 5; n++) {
      await createIssue(deps, scope(2), ada, { title: `issue ${n}`, body: '', ref: '', assignees: ['ada'], labels: [Number(label.id)], milestone: Number(milestone.id), closed: n % 2 === 1 });
    }
    statements = [];
    const page = await list(2, { state: 'open' });
    expect(statements).toHaveLength(1);
    expect(page.total).toBe(3);
    expect(page.items[0]).toMatchObject({ poster: { login: 'ada' }, assignees: [{ login: 'ada' }], labels: [{ name: 'bug' }], milestone: { title: 'v1', openIssues: 3, closedIssues: 2 } });

    statements = [];
    const filtered = await list(2, { labels: ['bug'], milestones: ['v1'], q: 'issue' });
    expect(statements).toHaveLength(1);
    expect(filtered.total).toBe(5);
  });

  it('keep milestone counts exact as issues close, reopen and move', async () => {
    const [open] = (await list(2, { state: 'open', limit: 1 })).items;
    await editIssue(deps, scope(2), ada, open.index, { state: 'closed', milestone: 0 });
    const milestone = await db.milestone.findFirst({ where: { repository_id: 2n } });
    expect([milestone!.open_issues, milestone!.closed_issues]).toEqual([2, 2]);
    const events = await db.outboxEvent.findMany({ where: { subject: { in: ['collaboration.issue.closed', 'collaboration.issue.demilestoned'] } } });
    expect(events.map((e) => e.subject).sort()).toEqual(['collaboration.issue.closed', 'collaboration.issue.closed', 'collaboration.issue.closed', 'collaboration.issue.demilestoned']);
  });

  it('show a poster as identity last described them', async () => {
    const handler = identityUserConsumer(log);
    await db.$transaction((tx) => handler.handle({
      id: 'e1', subject: 'identity.user.updated', type: 'anvil.identity.v1.UserUpdated',
      payload: { user: { id: 7, login: 'ada', full_name: 'Ada Lovelace', type: 'user' } },
    }, tx));
    expect((await list(1, { limit: 1 })).items[0].poster).toMatchObject({ login: 'ada', full_name: 'Ada Lovelace' });
  });

  it('remove a deleted repository\'s issues, and only its', async () => {
    const handler = repositoryConsumer(log);
    await db.$transaction((tx) => handler.handle({
      id: 'e2', subject: 'repository.repo.deleted', type: 'anvil.repository.v1.RepositoryDeleted', payload: { repository: { id: 2 } },
    }, tx));
    expect((await list(2)).total).toBe(0);
    expect(await db.milestone.count({ where: { repository_id: 2n } })).toBe(0);
    expect((await list(1)).total).toBe(64);
  });
});

describe('issue counts', () => {
  it('announce the repository\'s counts with every creation, close, reopen and deletion, each with a higher version', async () => {
    const repositoryId = 40;
    const counts = async () => (await db.outboxEvent.findMany({ where: { subject: 'collaboration.repo_issue_counts.changed' }, orderBy: { seq: 'asc' } }))
      .map((row) => decodeEvent(row.type, row.payload) as { repository_id: string; open_issues: string; closed_issues: string; version: string })
      .filter((c) => Number(c.repository_id) === repositoryId)
      .map((c) => [Number(c.open_issues), Number(c.closed_issues), Number(c.version)]);
    const input = { title: 'counted', body: '', ref: '', assignees: [], labels: [], milestone: 0, closed: false };
    await createIssue(deps, scope(repositoryId), ada, input);
    await createIssue(deps, scope(repositoryId), ada, { ...input, closed: true });
    await editIssue(deps, scope(repositoryId), ada, 1, { state: 'closed', milestone: 0 });
    await editIssue(deps, scope(repositoryId), ada, 1, { state: 'open', milestone: 0 });
    await deleteIssue(deps, scope(repositoryId), ada, 2);
    expect(await counts()).toEqual([[1, 0, 1], [1, 1, 2], [0, 2, 3], [1, 1, 4], [1, 0, 5]]);
  });
});
