// Pull requests over real PostgreSQL: they take numbers from the issues' sequence, two
// concurrent creators of the same head and base get one pull and one 409, a pull is opened
// with exactly one event however many labels and assignees it starts with, a list reads
// stored git facts, and a merge is recorded once even when a push recorded it first.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { fileURLToPath } from 'node:url';
import { prismaAdapter } from '@anvil/kit';
import { createIssue } from '../src/domain/issues.js';
import { createPull, listPulls, markPullMerged, type PullDeps } from '../src/domain/pulls.js';
import { PrismaClient } from '../src/store/generated/client.js';
import { createDb } from '../src/store/db.js';
import { issueStore } from '../src/store/issues.js';
import { forgetBranchHead, pullStore, rememberBranchHead } from '../src/store/pulls.js';
import { reviewStore } from '../src/store/reviews.js';
import { latestVerdicts } from '../src/domain/reviews.js';
import { anyPullOnBranch } from '../src/store/pull-sync.js';
import { newRunId, testDatabase, type TestDatabase } from '../../../test/support/int-testbed.js';
import { ada, adaScope } from './support/scope.js';

process.env.ANVIL_LOG_LEVEL ??= 'silent';
const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

let database: TestDatabase;
let db: PrismaClient;
let deps: PullDeps;


const scope = adaScope;

const facts = { headSha: 'a'.repeat(40), mergeBase: 'b'.repeat(40), mergeable: true, conflictedFiles: [], additions: 3, deletions: 1, changedFiles: 2 };
const open = (repositoryId: number, headBranch: string, extra: Partial<Parameters<typeof createPull>[3]> = {}) => createPull(deps, scope(repositoryId), ada, {
  title: `from ${headBranch}`, body: '', baseBranch: 'main', headBranch, facts, assignees: [], labels: [], milestone: 0, ...extra,
});

beforeAll(async () => {
  database = await testDatabase(`anvil_collaboration_pulls_test_${newRunId()}`, MIGRATIONS_DIR);
  // As the service makes it: a merge is recorded on the pg pool under the Prisma client.
  db = createDb(database.url);
  deps = { issues: issueStore(db), pulls: pullStore(db) };
}, 60_000);

afterAll(async () => {
  await db?.$disconnect();
  await database?.drop();
});

describe('pull requests in PostgreSQL', () => {
  it('share the issues\' numbers', async () => {
    await createIssue(deps, scope(1), ada, { title: 'an issue', body: '', ref: '', assignees: [], labels: [], milestone: 0, closed: false });
    expect((await open(1, 'one')).issue.index).toBe(2);
    await createIssue(deps, scope(1), ada, { title: 'another', body: '', ref: '', assignees: [], labels: [], milestone: 0, closed: false });
    expect((await open(1, 'two')).issue.index).toBe(4);
  });

  it('give concurrent creators of the same head and base one pull and a conflict, using no number for the refused', async () => {
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => open(2, 'same')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.reason)).toEqual(Array(7).fill('pull_exists'));
    expect((await open(2, 'other')).issue.index).toBe(2);
  });

  it('publish exactly one opened event for a pull opened with labels and assignees', async () => {
    const label = await db.label.create({ data: { repository_id: 3n, name: 'l', color: '#000000' } });
    const pull = await open(3, 'labelled', { labels: [Number(label.id)], assignees: ['ada'] });
    expect(pull.issue.labels).toHaveLength(1);
    const events = await db.outboxEvent.findMany({ where: { subject: { startsWith: 'collaboration.' } } });
    expect(events.filter((e) => e.subject === 'collaboration.pull_request.opened' && Buffer.from(e.payload).includes('from labelled'))).toHaveLength(1);
    expect(events.filter((e) => e.subject.startsWith('collaboration.issue.') && Buffer.from(e.payload).includes('from labelled'))).toHaveLength(0);
  });

  it('list with the stored git facts, and record a merge once', async () => {
    const { items, total } = await listPulls(deps, scope(2), { state: 'open', milestone: 0, labels: [], poster: '', offset: 0, limit: 50 });
    expect(total).toBe(2);
    expect(items[0]).toMatchObject({ additions: 3, deletions: 1, changedFiles: 2, status: 'mergeable', headSha: facts.headSha });
    const merged = await markPullMerged(deps, scope(2), ada, 1, { mergeCommitSha: 'c'.repeat(40), headSha: facts.headSha });
    expect(merged).toMatchObject({ hasMerged: true, mergeCommitSha: 'c'.repeat(40), issue: { isClosed: true } });
    // The same merge again (its push got there first) is no error; another merge is.
    expect((await markPullMerged(deps, scope(2), ada, 1, { mergeCommitSha: 'c'.repeat(40), headSha: facts.headSha })).hasMerged).toBe(true);
    await expect(markPullMerged(deps, scope(2), ada, 1, { mergeCommitSha: 'd'.repeat(40), headSha: facts.headSha })).rejects.toMatchObject({ reason: 'already_merged' });
    // The first record wrote the counts and the closed event (with its merge), in that order; the others wrote none.
    const written = await db.outboxEvent.findMany({ where: { subject: { in: ['collaboration.repo_issue_counts.changed', 'collaboration.pull_request.closed'] } }, orderBy: { seq: 'asc' } });
    expect(written.slice(-2).map((e) => e.subject)).toEqual(['collaboration.repo_issue_counts.changed', 'collaboration.pull_request.closed']);
    expect(Buffer.from(written.at(-1)!.payload).includes('c'.repeat(40))).toBe(true);
    expect(written.filter((e) => e.subject === 'collaboration.pull_request.closed')).toHaveLength(1);
    expect((await listPulls(deps, scope(2), { state: 'closed', milestone: 0, labels: [], poster: '', offset: 0, limit: 50 })).total).toBe(1);
  });

  it('show the base branch\'s head: from the facts they were opened with, then from pushes', async () => {
    const first = await createPull(deps, scope(5), ada, {
      title: 'based', body: '', baseBranch: 'main', headBranch: 'based', facts: { ...facts, baseSha: 'e'.repeat(40) }, assignees: [], labels: [], milestone: 0,
    });
    expect(first.baseSha).toBe('e'.repeat(40));
    // A later pull does not move what a push said; a push does.
    await rememberBranchHead(db, 5n, 'main', 'f'.repeat(40));
    await createPull(deps, scope(5), ada, {
      title: 'later', body: '', baseBranch: 'main', headBranch: 'later', facts: { ...facts, baseSha: 'e'.repeat(40) }, assignees: [], labels: [], milestone: 0,
    });
    const { items } = await listPulls(deps, scope(5), { state: 'open', milestone: 0, labels: [], poster: '', offset: 0, limit: 50 });
    expect(items.map((p) => p.baseSha)).toEqual(['f'.repeat(40), 'f'.repeat(40)]);
    await forgetBranchHead(db, 5n, 'main');
    expect((await listPulls(deps, scope(5), { state: 'open', milestone: 0, labels: [], poster: '', offset: 0, limit: 50 })).items[0].baseSha).toBe('');
  });

  it('show the base\'s head from git for the first pull on a base, however old the stored head, since pushes to it were not followed', async () => {
    // Stored by a push before pushes to branches without pulls were passed over.
    await rememberBranchHead(db, 6n, 'dev', 'd'.repeat(40));
    expect(await anyPullOnBranch(db, 6, 'dev')).toBe(false);
    const first = await createPull(deps, scope(6), ada, {
      title: 'on dev', body: '', baseBranch: 'dev', headBranch: 'topic', facts: { ...facts, baseSha: 'e'.repeat(40) }, assignees: [], labels: [], milestone: 0,
    });
    expect(first.baseSha).toBe('e'.repeat(40));
    // From now on pushes to dev (the base) and to topic (the head) are followed; others are not.
    expect(await anyPullOnBranch(db, 6, 'dev')).toBe(true);
    expect(await anyPullOnBranch(db, 6, 'topic')).toBe(true);
    expect(await anyPullOnBranch(db, 6, 'other')).toBe(false);
    expect(await anyPullOnBranch(db, 7, 'dev')).toBe(false);
  });

  it('show requested reviewers and teams and count submitted reviews, a page of them in one statement', async () => {
    const pull = await open(4, 'reviewed');
    const user = (id: number, login: string) => db.user.create({ data: { id: BigInt(id), login, lower_name: login, profile: { id, login } } });
    await user(501, 'bea');
    await user(502, 'cy');
    await user(503, 'dee');
    const review = (reviewer: number, state: string, extra: { dismissed?: boolean; team_id?: bigint; team?: object } = {}) =>
      db.pullReview.create({ data: { issue_id: BigInt(pull.issue.id), reviewer_id: BigInt(reviewer), state, ...extra } });
    await review(501, 'REQUEST_REVIEW');
    await review(501, 'COMMENT'); // a comment leaves bea's request standing
    await review(502, 'APPROVED');
    await review(503, 'REQUEST_CHANGES', { dismissed: true }); // dismissed: dee is not listed
    await review(0, 'REQUEST_REVIEW', { team_id: 9n, team: { id: 9, name: 'Reviewers' } });
    await review(502, 'PENDING');

    const counted: string[] = [];
    const watched = new PrismaClient({ adapter: prismaAdapter(database.url), log: [{ emit: 'event', level: 'query' }] });
    watched.$on('query', (e) => counted.push(e.query));
    try {
      const { items } = await listPulls({ ...deps, pulls: pullStore(watched) }, scope(4), { state: 'open', milestone: 0, labels: [], poster: '', offset: 0, limit: 50 });
      expect(counted).toHaveLength(1);
      expect(items[0].requestedReviewers.map((u) => u.login)).toEqual(['bea', 'cy']);
      expect(items[0].requestedTeams.map((t) => t.name)).toEqual(['Reviewers']);
      // COMMENT, APPROVED and the dismissed REQUEST_CHANGES were submitted; a request or a pending review was not.
      expect(items[0].reviewComments).toBe(3);
      expect(items[0].baseSha).toBe('');
    } finally {
      await watched.$disconnect();
    }
  });

  it('give a merge each reviewer\'s latest standing verdict, in the pull\'s own statement, as the reviews list picks them', async () => {
    const pull = await open(5, 'verdicts');
    const review = (reviewer: number, state: string, extra: { dismissed?: boolean; commit_id?: string; official?: boolean } = {}) =>
      db.pullReview.create({ data: { issue_id: BigInt(pull.issue.id), reviewer_id: BigInt(reviewer), state, ...extra } });
    await review(601, 'APPROVED', { commit_id: 'c'.repeat(40), official: true }); // on an older head: stale
    await review(602, 'REQUEST_CHANGES', { commit_id: facts.headSha });
    await review(602, 'APPROVED', { commit_id: facts.headSha, official: true }); // changed their mind: only this counts
    await review(602, 'COMMENT'); // a comment is no verdict
    await review(603, 'REQUEST_CHANGES', { dismissed: true }); // dismissed: none
    await review(604, 'PENDING');
    await review(605, 'REQUEST_REVIEW');
    const found = await deps.pulls.findWithVerdicts(5, pull.issue.index);
    const reviews = reviewStore(db);
    const listed = latestVerdicts((await reviews.list(pull, { offset: 0, limit: 100 })).items)
      .map((r) => ({ reviewerId: r.reviewerId, state: r.state, official: r.official, stale: r.stale }));
    const byReviewer = (a: { reviewerId: number }, b: { reviewerId: number }) => a.reviewerId - b.reviewerId;
    expect(found?.pull.issue.index).toBe(pull.issue.index);
    expect([...found!.verdicts].sort(byReviewer)).toEqual(listed.sort(byReviewer));
    expect([...found!.verdicts].sort(byReviewer)).toEqual([
      { reviewerId: 601, state: 'APPROVED', official: true, stale: true },
      { reviewerId: 602, state: 'APPROVED', official: true, stale: false },
      { reviewerId: 605, state: 'REQUEST_REVIEW', official: false, stale: false },
    ]);
    expect(await deps.pulls.findWithVerdicts(5, 9_999)).toBeUndefined();
  });
});
