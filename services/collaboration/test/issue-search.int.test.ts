// Issue search across repositories over real PostgreSQL: whatever the number of
// repositories searched, a page is one SQL statement (never one per repository); only the
// repositories named are searched; labels (organization labels too) and milestones match by
// name; "created", "assigned", "mentioned" and "review_requested" mean the caller.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { prismaAdapter, type Caller, type RepositoryScope } from '@anvil/kit';
import { searchIssues, type SearchDeps, type SearchIssuesInput } from '../src/domain/issue-search.js';
import { createIssue, type IssueDeps } from '../src/domain/issues.js';
import { PrismaClient } from '../src/store/generated/client.js';
import { issueSearchStore } from '../src/store/issue-search.js';
import { issueStore } from '../src/store/issues.js';
import { newRunId, testDatabase, type TestDatabase } from '../../../test/support/int-testbed.js';

process.env.ANVIL_LOG_LEVEL ??= 'silent';
const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

let database: TestDatabase;
let db: PrismaClient;
let deps: IssueDeps & SearchDeps;
/** SQL statements the client sent since the last reset. */
let statements: string[] = [];

const ada: Caller = { userId: 7, login: 'ada', isAdmin: false, restricted: false, scopes: ['all'] };
const bob: Caller = { userId: 8, login: 'bob', isAdmin: false, restricted: false, scopes: ['all'] };
const anonymous: Caller = { userId: 0, login: '', isAdmin: false, restricted: false, scopes: [] };

/** A repository of `owner` as the gateway resolves it for its owner. */
function scope(id: number, owner: { id: number; login: string; type?: string } = { id: 7, login: 'ada' }): RepositoryScope {
  return {
    permission: 'owner',
    repository: { id, owner_id: owner.id, owner_login: owner.login, name: `repo-${id}`, private: false, archived: false } as RepositoryScope['repository'],
    owner: { id: owner.id, login: owner.login, type: owner.type ?? 'user' } as RepositoryScope['owner'],
  };
}

const open = (repositoryId: number, title: string, extra: Partial<Parameters<typeof createIssue>[3]> = {}, who: Caller = ada, owner?: { id: number; login: string; type?: string }) =>
  createIssue(deps, scope(repositoryId, owner), who, { title, body: '', ref: '', assignees: [], labels: [], milestone: 0, closed: false, ...extra });

const search = (repositoryIds: number[], extra: Partial<SearchIssuesInput> = {}, caller: Caller = ada) => searchIssues(deps, caller, {
  repositoryIds, state: 'open', type: '', labels: [], milestones: [], q: '', assigned: false, created: false, mentioned: false,
  reviewRequested: false, reviewed: false, createdBy: '', offset: 0, limit: 30, ...extra,
});

const titles = (page: { items: Array<{ title: string }> }) => page.items.map((i) => i.title).sort();

beforeAll(async () => {
  database = await testDatabase(`anvil_collaboration_search_test_${newRunId()}`, MIGRATIONS_DIR);
  db = new PrismaClient({ adapter: prismaAdapter(database.url), log: [{ emit: 'event', level: 'query' }] });
  db.$on('query', (e) => statements.push(e.query));
  deps = { issues: issueStore(db), issueSearch: issueSearchStore(db) };
  // bob is known to the read model (he opens issues below).
  await db.user.create({ data: { id: 8n, login: 'bob', lower_name: 'bob', profile: { id: 8, login: 'bob' } } });
}, 60_000);

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe('searching issues across repositories', () => {
  it('searches 3 or 300 repositories in one SQL statement', async () => {
    for (let repo = 1000; repo < 1300; repo++) await open(repo, `issue of ${repo}`);
    statements = [];
    const few = await search([1000, 1001, 1002]);
    expect(statements).toHaveLength(1);
    expect(few.total).toBe(3);

    statements = [];
    const many = await search(Array.from({ length: 300 }, (_, n) => 1000 + n), { limit: 10 });
    expect(statements).toHaveLength(1);
    expect(many.total).toBe(300);
    expect(many.items).toHaveLength(10);
    // Newest first.
    expect(many.items[0].title).toBe('issue of 1299');
  }, 120_000);

  it('finds nothing in repositories it was not given', async () => {
    await open(2000, 'in a private repository');
    await open(2001, 'in a visible repository');
    expect(titles(await search([2001]))).toEqual(['in a visible repository']);
    statements = [];
    expect(await search([])).toEqual({ items: [], total: 0 });
    // Nothing to search: not even a statement.
    expect(statements).toHaveLength(0);
  });

  it('matches any of the named labels, organization labels included, and drops names no label has', async () => {
    const org = { id: 50, login: 'acme', type: 'organization' };
    const bug = await db.label.create({ data: { repository_id: 3000n, name: 'bug', color: '#ee0701' } });
    const urgent = await db.label.create({ data: { org_id: 50n, name: 'urgent', color: '#000000' } });
    await open(3000, 'a bug', { labels: [Number(bug.id)] }, ada, org);
    await open(3001, 'urgent work', { labels: [Number(urgent.id)] }, ada, org);
    await open(3001, 'plain work', {}, ada, org);
    expect(titles(await search([3000, 3001], { labels: ['bug', 'URGENT'] }))).toEqual(['a bug', 'urgent work']);
    expect(titles(await search([3000, 3001], { labels: ['urgent'] }))).toEqual(['urgent work']);
    expect(titles(await search([3000, 3001], { labels: ['no-such-label'] }))).toEqual(['a bug', 'plain work', 'urgent work']);
  });

  it('filters by milestone name, state, type, keyword and time', async () => {
    const v1 = await db.milestone.create({ data: { repository_id: 4000n, name: 'v1.0' } });
    await open(4000, 'planned', { milestone: Number(v1.id) });
    await open(4001, 'done long ago', { closed: true });
    await open(4001, 'keyword inside: flux capacitor');
    expect(titles(await search([4000, 4001], { milestones: ['V1.0'] }))).toEqual(['planned']);
    expect(titles(await search([4000, 4001], { state: 'closed' }))).toEqual(['done long ago']);
    expect((await search([4000, 4001], { state: 'all' })).total).toBe(3);
    expect((await search([4000, 4001], { type: 'pulls' })).total).toBe(0);
    expect(titles(await search([4000, 4001], { q: 'Flux' }))).toEqual(['keyword inside: flux capacitor']);
    expect((await search([4000, 4001], { since: new Date(Date.now() + 60_000) })).total).toBe(0);
    expect((await search([4000, 4001], { before: new Date(Date.now() + 60_000) })).total).toBe(2);
  });

  it('reads created, assigned and mentioned as the caller, and ignores them for anonymous callers', async () => {
    await open(5000, 'by bob', {}, bob);
    await open(5000, 'by ada, assigned to bob', { assignees: ['bob'] });
    await open(5000, 'by ada, mentioning @bob', { body: 'cc @bob' });
    expect(titles(await search([5000], { created: true }, bob))).toEqual(['by bob']);
    expect(titles(await search([5000], { assigned: true }, bob))).toEqual(['by ada, assigned to bob']);
    expect(titles(await search([5000], { mentioned: true }, bob))).toEqual(['by ada, mentioning @bob']);
    expect(titles(await search([5000], { createdBy: 'BOB' }))).toEqual(['by bob']);
    expect((await search([5000], { created: true }, anonymous)).total).toBe(3);
  });

  it('finds pulls whose review was requested from the caller', async () => {
    const issue = await open(6000, 'a pull asking bob');
    await db.issue.update({ where: { id: BigInt(issue.id) }, data: { is_pull: true } });
    await db.pullReview.create({ data: { issue_id: BigInt(issue.id), reviewer_id: 8n, state: 'REQUEST_REVIEW' } });
    await open(6000, 'an issue');
    expect(titles(await search([6000], { reviewRequested: true }, bob))).toEqual(['a pull asking bob']);
    expect((await search([6000], { reviewRequested: true }, ada)).total).toBe(0);
  });

  it('reports the total on a page past the end', async () => {
    expect(await search([1000, 1001], { offset: 30 })).toEqual({ items: [], total: 2 });
  });
});
